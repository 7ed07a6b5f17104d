import { readFileSync, statSync } from 'node:fs';
import { controlCharacterIssue, decodeUtf8, type ConfigIssue } from '@parley/core';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { MAX_NESTING_DEPTH, NESTING_MESSAGE, pathDeeperThan } from './nesting-depth.js';
import { parseYamlSubset } from './yaml-subset-parser.js';
import { parseYamlSource, type DataPath, type LocationTarget, type SourcePosition, type YamlSource } from './yaml-source.js';
import { describeZodIssues, validate } from './zod-issues.js';

type ConfigFormat = 'yaml' | 'json';

export interface ConfigFileOptions {
  /** How to parse the text; by default from the file name (`.json` is JSON, anything else YAML). */
  format?: ConfigFormat;
  /**
   * Parse with the fast subset parser / JSON.parse first and build the located syntax tree only
   * when something is wrong (default). `false` always builds it: for tests and diagnosis.
   */
  fastPath?: boolean;
  /** Further keys allowed at the top of the file besides the schema's (suggested for misspellings). */
  extraKeys?: readonly string[];
}

/** One configuration file, parsed and validated, with the means to report more problems in it. */
export interface ParsedConfigFile<Data> {
  file: string;
  /** The validated data (schema defaults applied); undefined when the file has errors. */
  data: Data | undefined;
  /** The parsed data before validation; undefined when the text could not be parsed. */
  raw: unknown;
  /** Syntax and schema problems found in the file. */
  issues: ConfigIssue[];
  /** Where a path is written (builds the syntax tree on first use). */
  locate(path: DataPath, target?: LocationTarget): SourcePosition;
  /** A located issue at a path of this file. */
  issueAt(path: DataPath, message: string, options?: { target?: LocationTarget; severity?: 'error' | 'warning' }): ConfigIssue;
  /**
   * A located issue at a piece of text inside the string at `path` (e.g. `{{lang}}` in a script
   * line): its own line and column when the text is written as it reads, else the string's.
   */
  issueAtText(path: DataPath, text: string, message: string): ConfigIssue;
}

/**
 * Parse and validate the text of a configuration file. Valid files take the fast path (no syntax
 * tree); a file with a problem is parsed again by `yaml` so every issue gets its line and column.
 */
export function parseConfigText<Schema extends z.ZodType>(
  text: string,
  file: string,
  schema: Schema,
  options: ConfigFileOptions = {},
): ParsedConfigFile<z.output<Schema>> {
  const format = options.format ?? (file.toLowerCase().endsWith('.json') ? 'json' : 'yaml');
  const source = withoutByteOrderMark(text);
  const control = controlCharacterIssue(source, file);
  let tree: YamlSource | undefined;
  const syntaxTree = (): YamlSource => (tree ??= parseYamlSource(source, file));
  const locate = (path: DataPath, target?: LocationTarget): SourcePosition => syntaxTree().locate(path, target);
  const issueAt: ParsedConfigFile<unknown>['issueAt'] = (path, message, issueOptions = {}) => ({
    file,
    ...locate(path, issueOptions.target),
    message,
    severity: issueOptions.severity ?? 'error',
  });
  const issueAtText: ParsedConfigFile<unknown>['issueAtText'] = (path, needle, message) => {
    const start = locate(path);
    const found = source.indexOf(needle, offsetOfPosition(source, start));
    return { file, ...(found === -1 ? start : positionOfOffset(source, found)), message, severity: 'error' };
  };
  const result = (data: z.output<Schema> | undefined, raw: unknown, issues: ConfigIssue[]): ParsedConfigFile<z.output<Schema>> => ({
    file,
    data,
    raw,
    issues,
    locate,
    issueAt,
    issueAtText,
  });

  if (control) return result(undefined, undefined, [control]);

  const parsed = format === 'json' ? parseJson(source, file) : parseYaml(source, options.fastPath !== false, syntaxTree);
  if (!parsed.ok) return result(undefined, undefined, parsed.issues);
  const tooDeep = pathDeeperThan(parsed.value, MAX_NESTING_DEPTH);
  if (tooDeep) return result(undefined, undefined, [issueAt(tooDeep, NESTING_MESSAGE)]);

  const validation = validate(schema, parsed.value);
  if (validation.success) return result(validation.data, parsed.value, parsed.issues);
  const schemaIssues = describeZodIssues(validation.error.issues, {
    file,
    schema,
    data: parsed.value,
    locate,
    ...(options.extraKeys ? { extraKeys: options.extraKeys } : {}),
  });
  return result(undefined, parsed.value, inReadingOrder([...parsed.issues, ...schemaIssues]));
}

function inReadingOrder(issues: ConfigIssue[]): ConfigIssue[] {
  return issues.sort((left, right) => (left.line ?? 0) - (right.line ?? 0) || (left.column ?? 0) - (right.column ?? 0));
}

/** Read, parse and validate a configuration file; an unreadable file is an issue, not a throw. */
export function readConfigFile<Schema extends z.ZodType>(
  file: string,
  schema: Schema,
  options: ConfigFileOptions = {},
): ParsedConfigFile<z.output<Schema>> {
  const text = readTextFile(file);
  if (typeof text === 'string') return parseConfigText(text, file, schema, options);
  const issue: ConfigIssue = { file, line: text.line, column: text.column, message: text.problem, severity: 'error' };
  return {
    file,
    data: undefined,
    raw: undefined,
    issues: [issue],
    locate: () => ({ line: 1, column: 1 }),
    issueAt: (_path, message, issueOptions = {}) => ({ file, message, severity: issueOptions.severity ?? 'error' }),
    issueAtText: (_path, _text, message) => ({ file, message, severity: 'error' }),
  };
}

/** Why a file's text could not be had: in words for the user, and where, when it is inside the file. */
export interface TextFileProblem {
  problem: string;
  line?: number;
  column?: number;
}

/**
 * A file's text, or why it could not be read: a read error, bytes that are not UTF-8, or a
 * control character (NUL, ESC, …), the last two with their line and column.
 */
export function readTextFile(file: string): string | TextFileProblem {
  let bytes: Buffer;
  try {
    // Opening a FIFO blocks until someone writes to it: only regular files are opened.
    const stats = statSync(file);
    if (stats.isDirectory()) return { problem: 'is a folder, not a file' };
    if (!stats.isFile()) return { problem: 'is not a regular file (a FIFO, socket or device?)' };
    bytes = readFileSync(file);
  } catch (error) {
    return { problem: describeReadError(error) };
  }
  const decoded = decodeUtf8(bytes, file);
  if ('issue' in decoded) return problemAt(decoded.issue);
  const control = controlCharacterIssue(decoded.text, file);
  return control ? problemAt(control) : decoded.text;
}

function problemAt(issue: ConfigIssue): TextFileProblem {
  return { problem: issue.message, line: issue.line, column: issue.column };
}

function describeReadError(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  switch (code) {
    case 'ENOENT':
      return 'file not found';
    case 'EISDIR':
      return 'is a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'cannot read the file: permission denied';
    default:
      return `cannot read the file: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

type ParseOutcome = { ok: true; value: unknown; issues: ConfigIssue[] } | { ok: false; issues: ConfigIssue[] };

function parseYaml(text: string, fastPath: boolean, syntaxTree: () => YamlSource): ParseOutcome {
  if (fastPath) {
    const fast = parseYamlSubset(text);
    if (fast !== undefined) return { ok: true, value: fast.value, issues: [] };
  }
  const tree = syntaxTree();
  if (tree.issues.some((issue) => issue.severity !== 'warning')) return { ok: false, issues: tree.issues };
  return { ok: true, value: tree.data, issues: tree.issues };
}

function parseJson(text: string, file: string): ParseOutcome {
  try {
    return { ok: true, value: JSON.parse(text) as unknown, issues: [] };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = /at position (\d+)/.exec(message)?.[1];
    // V8 names no position for an unexpected token; the YAML parser (JSON is YAML) finds where it is.
    const position = offset !== undefined ? positionOfOffset(text, Number(offset)) : (firstYamlErrorPosition(text) ?? positionOfOffset(text, text.length));
    const reason = message.replace(/ in JSON at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
    return { ok: false, issues: [{ file, ...position, message: `invalid JSON: ${reason}`, severity: 'error' }] };
  }
}

/** Where the YAML parser sees the first problem in a text, if it sees one. */
function firstYamlErrorPosition(text: string): SourcePosition | undefined {
  const start = parseDocument(text).errors[0]?.linePos?.[0];
  return start === undefined ? undefined : { line: start.line, column: start.col };
}

/** The offset of a 1-based line and column in a text (the end of the text when past it). */
function offsetOfPosition(text: string, position: SourcePosition): number {
  let offset = 0;
  for (let line = 1; line < position.line; line++) {
    const newline = text.indexOf('\n', offset);
    if (newline === -1) return text.length;
    offset = newline + 1;
  }
  return Math.min(text.length, offset + position.column - 1);
}

function positionOfOffset(text: string, offset: number): SourcePosition {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text.charCodeAt(index) === 10) {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
