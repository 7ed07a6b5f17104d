import type { ConfigIssue } from '@parley/core';
import type { z } from 'zod';
import { didYouMean } from './did-you-mean.js';
import { allowedKeysAt } from './schema-keys.js';
import type { DataPath, LocationTarget, SourcePosition } from './yaml-source.js';

/**
 * zod's own messages ("Invalid input: expected number, received string") name no key and speak
 * TypeScript; these turn each zod issue into a message a YAML author understands, at the line
 * and column of the offending key or value.
 */

/**
 * What zod reports when a schema has no message of its own. Validating through `validate` marks
 * built-in messages with it, so messages a schema author wrote (a regex's explanation, a
 * refinement's sentence) can be shown as they are.
 */
const BUILT_IN_MESSAGE = '\u0000built-in';

/**
 * How many files a process checks with zod's plain checker before letting zod compile its fast
 * one. On an object schema's first parse zod writes a checker for its shape and compiles it with
 * `new Function`: that pays off over hundreds of files, but `parley validate` of one suite file
 * spent more on compiling than on checking (tools/bench/README.md, "Start-up, third pass"). The
 * results are the same either way; only the path zod takes differs.
 */
const PLAIN_CHECKS = 64;
let checks = 0;

/** `schema.safeParse(data)`, marking zod's built-in messages for `describeZodIssues`. */
export function validate<Schema extends z.ZodType>(schema: Schema, data: unknown): z.ZodSafeParseResult<z.output<Schema>> {
  checks += 1;
  return schema.safeParse(data, { error: () => BUILT_IN_MESSAGE, jitless: checks <= PLAIN_CHECKS });
}

export interface ZodIssueContext {
  file: string;
  /** The schema that was validated: walked to list the keys allowed where an unknown key is. */
  schema: z.core.$ZodType;
  /** The data that was validated. */
  data: unknown;
  /** Positions in the file, for paths of the whole file (so including `pathPrefix`). */
  locate(path: DataPath, target?: LocationTarget): SourcePosition;
  /** Where `data` sits inside the file, when it is only a part of it (an expectation's parameters). */
  pathPrefix?: DataPath;
  /** Further keys allowed at the top of `data` besides the schema's (suggested for misspellings). */
  extraKeys?: readonly string[];
}

const LONGEST_QUOTED_VALUE = 40;
const LONGEST_KEY_LIST = 12;

/**
 * Readable, located `ConfigIssue`s for zod issues. The issues must come from `validate` (not a
 * plain safeParse), which is how zod's built-in messages are told from a schema's own.
 */
export function describeZodIssues(issues: readonly z.core.$ZodIssue[], context: ZodIssueContext): ConfigIssue[] {
  return issues.flatMap((issue) => describeIssue(issue, [], context));
}

function describeIssue(issue: z.core.$ZodIssue, basePath: DataPath, context: ZodIssueContext): ConfigIssue[] {
  const path = [...basePath, ...issue.path.filter(isPathSegment)];
  const value = valueAt(context.data, path);
  const at = (message: string, target: LocationTarget = 'value', where: DataPath = path): ConfigIssue => ({
    file: context.file,
    ...context.locate([...(context.pathPrefix ?? []), ...where], target),
    message,
    severity: 'error',
  });
  const label = labelOf([...(context.pathPrefix ?? []), ...path]);
  const custom = customMessage(issue);

  switch (issue.code) {
    case 'unrecognized_keys': {
      // Worked out once per mapping, not per key: a file may hold thousands of unknown keys.
      const describe = unknownKeyDescriber(path, context);
      return issue.keys.map((key) => at(describe(key), 'key', [...path, key]));
    }
    case 'invalid_union':
      return describeUnion(issue, path, value, label, context, at);
    case 'invalid_key': {
      const key = path[path.length - 1];
      const reason = issue.issues.map((inner) => customMessage(inner) ?? innerKeyReason(inner)).join('; ');
      return [at(`key "${String(key)}" is invalid: ${reason}`, 'key')];
    }
    default:
      break;
  }

  if (value === undefined && isMissingKey(context.data, path)) {
    return [at(`missing required key "${String(path[path.length - 1])}"`)];
  }
  // A refinement's message is a whole sentence of its own; a schema's message on a check explains the rule.
  if (custom !== undefined && issue.code === 'custom') return [at(custom)];
  if (custom !== undefined) return [at(`${label} is invalid: ${custom}${gotSuffix(value)}`)];

  switch (issue.code) {
    case 'invalid_type':
      if (path.length === 0 && (value === null || value === undefined)) return [at('the file is empty')];
      return [at(`${label} must be ${describeExpectedType(issue.expected, value)}, got ${describeValue(value)}`)];
    case 'invalid_value':
      return [at(`${label} must be ${listOfChoices(issue.values)}, got ${describeValue(value)}`)];
    case 'too_small':
      return [at(describeBound(label, issue, value, 'small'))];
    case 'too_big':
      return [at(describeBound(label, issue, value, 'big'))];
    case 'invalid_format':
      return [at(`${label} ${describeFormat(issue)}${gotSuffix(value)}`)];
    case 'not_multiple_of':
      return [at(`${label} must be a multiple of ${String(issue.divisor)}${gotSuffix(value)}`)];
    default:
      return [at(`${label} is invalid${gotSuffix(value)}`)];
  }
}

function isPathSegment(segment: PropertyKey): segment is string | number {
  return typeof segment === 'string' || typeof segment === 'number';
}

/** The schema author's own message, or undefined for zod's built-in ones (marked by `validate`). */
function customMessage(issue: z.core.$ZodIssue): string | undefined {
  return issue.message === BUILT_IN_MESSAGE ? undefined : issue.message;
}

function valueAt(data: unknown, path: DataPath): unknown {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = Reflect.get(value, segment) as unknown;
  }
  return value;
}

function isMissingKey(data: unknown, path: DataPath): boolean {
  if (path.length === 0) return false;
  const parent = valueAt(data, path.slice(0, -1));
  return parent !== null && typeof parent === 'object' && !Array.isArray(parent) && !Object.hasOwn(parent, path[path.length - 1]!);
}

/** `"threshold"`, `"script[1]"`: the last key of a path and any list indexes after it. */
export function labelOf(path: DataPath): string {
  if (path.length === 0) return 'the file';
  let start = path.length - 1;
  while (start > 0 && typeof path[start] === 'number') start--;
  const [head, ...indexes] = path.slice(start);
  const name = typeof head === 'number' ? `[${head}]` : head!;
  return `"${name}${indexes.map((index) => `[${index}]`).join('')}"`;
}

/** Describes unknown keys of the mapping at `path`, suggesting the allowed key meant. */
function unknownKeyDescriber(path: DataPath, context: ZodIssueContext): (key: string) => string {
  const parent = valueAt(context.data, path);
  const present = new Set(parent !== null && typeof parent === 'object' ? Object.keys(parent) : []);
  const allowed = [...(allowedKeysAt(context.schema, context.data, path) ?? []), ...(path.length === 0 ? (context.extraKeys ?? []) : [])];
  const candidates = allowed.filter((candidate) => !present.has(candidate));
  const allowedList = allowed.length > 0 && allowed.length <= LONGEST_KEY_LIST ? `; allowed keys: ${allowed.join(', ')}` : '';
  return (key) => {
    const suggestion = didYouMean(key, candidates);
    return suggestion ? `unknown key "${key}"${suggestion}` : `unknown key "${key}"${allowedList}`;
  };
}

type Locator = (message: string, target?: LocationTarget, where?: DataPath) => ConfigIssue;

function describeUnion(
  issue: z.core.$ZodIssueInvalidUnion,
  path: DataPath,
  value: unknown,
  label: string,
  context: ZodIssueContext,
  at: Locator,
): ConfigIssue[] {
  if (issue.errors.length === 0) {
    // A discriminated union whose discriminator matched no option; zod's path ends at the discriminator.
    const choices = 'options' in issue ? (issue.options ?? []) : [];
    if (value === undefined && isMissingKey(context.data, path)) return [at(`missing required key "${String(path[path.length - 1])}"`)];
    const custom = customMessage(issue);
    if (custom !== undefined) return [at(`${label} is invalid: ${custom}${gotSuffix(value)}`)];
    return [at(`${label} must be ${listOfChoices(choices)}, got ${describeValue(value)}`)];
  }
  // Every option failed at the top with a wrong type: the value is of none of the accepted types.
  const typeMismatches = issue.errors.map((optionIssues) =>
    optionIssues.length === 1 && optionIssues[0]!.code === 'invalid_type' && optionIssues[0]!.path.length === 0 ? optionIssues[0] : undefined,
  );
  if (typeMismatches.every((mismatch) => mismatch !== undefined)) {
    if (value === undefined && isMissingKey(context.data, path)) return [at(`missing required key "${String(path[path.length - 1])}"`)];
    const expected = [...new Set(typeMismatches.map((mismatch) => describeExpectedType(mismatch.expected, value)))];
    return [at(`${label} must be ${expected.join(' or ')}, got ${describeValue(value)}`)];
  }
  // Otherwise the option the data came closest to (fewest problems) says best what is wrong.
  const closest = issue.errors.reduce((best, candidate) => (candidate.length < best.length ? candidate : best));
  return closest.flatMap((inner) => describeIssue(inner, path, context));
}

function innerKeyReason(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_format' && issue.format === 'regex') return `keys here must match ${issue.pattern ?? 'the pattern'}`;
  if (issue.code === 'invalid_value') return `keys here must be ${listOfChoices(issue.values)}`;
  return 'not an allowed key';
}

function describeExpectedType(expected: string, value: unknown): string {
  switch (expected) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'int':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'array':
    case 'tuple':
      return 'a list';
    case 'object':
    case 'record':
    case 'map':
      return 'a mapping';
    case 'null':
      return 'empty (null)';
    case 'nonoptional':
      return value === undefined ? 'given' : 'a value';
    default:
      return `of type ${expected}`;
  }
}

/** `string "high"`, `number 3`, `a list`: what the user wrote, briefly. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return `string ${quote(value)}`;
    case 'number':
    case 'bigint':
      return `number ${String(value)}`;
    case 'boolean':
      return `boolean ${String(value)}`;
    case 'object':
      return 'a mapping';
    default:
      return typeof value;
  }
}

function quote(text: string): string {
  return JSON.stringify(text.length > LONGEST_QUOTED_VALUE ? `${text.slice(0, LONGEST_QUOTED_VALUE)}…` : text);
}

/** `, got "x"` for values worth repeating (short scalars), else nothing. */
function gotSuffix(value: unknown): string {
  if (typeof value === 'string') return ` (got ${quote(value)})`;
  if (typeof value === 'number' || typeof value === 'boolean') return ` (got ${String(value)})`;
  return '';
}

function listOfChoices(values: readonly unknown[]): string {
  const written = values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  if (written.length === 1) return written[0]!;
  return `one of ${written.join(', ')}`;
}

function describeBound(
  label: string,
  issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig,
  value: unknown,
  direction: 'small' | 'big',
): string {
  const limit = 'minimum' in issue ? issue.minimum : issue.maximum;
  const inclusive = issue.inclusive !== false;
  const bound = String(limit);
  switch (issue.origin) {
    case 'string':
      if (direction === 'small' && Number(limit) === 1) return `${label} must not be empty`;
      return `${label} must be ${direction === 'small' ? 'at least' : 'at most'} ${bound} characters long${gotSuffix(value)}`;
    case 'array':
    case 'set':
      if (direction === 'small' && Number(limit) === 1) return `${label} must not be an empty list`;
      return `${label} must have ${direction === 'small' ? 'at least' : 'at most'} ${bound} item${Number(limit) === 1 ? '' : 's'}`;
    default: {
      const relation =
        direction === 'small' ? (inclusive ? 'at least' : 'greater than') : inclusive ? 'at most' : 'less than';
      return `${label} must be ${relation} ${bound}, got ${describeValue(value)}`;
    }
  }
}

function describeFormat(issue: z.core.$ZodIssueInvalidStringFormat): string {
  switch (issue.format) {
    case 'regex':
      return `must match ${issue.pattern ?? 'the expected pattern'}`;
    case 'starts_with':
      return 'prefix' in issue ? `must start with ${JSON.stringify(issue.prefix)}` : 'has the wrong start';
    case 'ends_with':
      return 'suffix' in issue ? `must end with ${JSON.stringify(issue.suffix)}` : 'has the wrong end';
    case 'includes':
      return 'includes' in issue ? `must contain ${JSON.stringify(issue.includes)}` : 'lacks an expected part';
    case 'datetime':
      return 'must be an ISO 8601 date and time such as 2026-11-02T09:14:00Z';
    case 'date':
      return 'must be a date such as 2026-11-02';
    default:
      return `must be a valid ${issue.format}`;
  }
}
