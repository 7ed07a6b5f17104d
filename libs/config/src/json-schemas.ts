import * as z from 'zod';
import { ExpectationSchema, ThresholdingSchema } from './expectation-schema.js';
import { METRIC_NAME_PATTERN } from './rubric-metric-schema.js';
import type { SchemaDescriptions } from './schema-descriptions.js';
import { BaselineSchema } from './baseline-schema.js';
import { CalibrationSetSchema } from './calibration-schema.js';
import { RubricMetricSchema } from './rubric-metric-schema.js';
import { CommandMetricSchema, ModuleMetricSchema } from './code-metric-schema.js';
import { ScenarioSchema } from './scenario-schema.js';
import { SuiteSchema } from './suite-schema.js';

/** The file kinds `parley schema <kind>` prints, each with the file it describes. */
export const JSON_SCHEMA_KINDS = {
  suite: { schema: SuiteSchema, title: 'Parley suite (parley.yaml)' },
  scenario: { schema: ScenarioSchema, title: 'Parley scenario (scenarios/*.yaml)' },
  metric: { schema: z.union([RubricMetricSchema, ModuleMetricSchema, CommandMetricSchema]), title: 'Parley metric (metrics/*.yaml): a rubric, or a metric written in code' },
  baseline: { schema: BaselineSchema, title: 'Parley baseline (baseline.json)' },
  calibration: { schema: CalibrationSetSchema, title: 'Parley calibration set (calibration/human_labelled.yaml)' },
} as const;

export type JsonSchemaKind = keyof typeof JSON_SCHEMA_KINDS;

/** What a file kind's JSON Schema knows beyond the zod schema of the file itself. */
export interface JsonSchemaOptions {
  /**
   * The built-in metrics' parameter schemas (the runner's `metricParamSchemas()`): with them an
   * expectation is checked by its `metric`, each built-in metric's parameters closed, as
   * `parley validate` checks them.
   */
  metricParams?: Record<string, z.ZodType>;
  /**
   * The suite's own rubric metric names (its metrics/ folder). Given, `metric:` is closed to the
   * built-ins and these; not given, any other name that could be a rubric metric is allowed.
   */
  rubricMetricNames?: readonly string[];
  /** Descriptions of every key, read from docs/file-formats.md (readSchemaDescriptions). */
  descriptions?: SchemaDescriptions;
}

type JsonObject = Record<string, unknown>;

/**
 * The JSON Schema (draft 2020-12) of a file kind, generated from the zod schema `parley validate`
 * checks with, so editors and Parley agree on required keys, enums and patterns. It describes what
 * a file may contain (zod's input side: keys with defaults are optional). Rules zod checks in code
 * (duplicates, cross-references between files) are only in `parley validate`.
 */
export function fileJsonSchema(kind: JsonSchemaKind, options: JsonSchemaOptions = {}): Record<string, unknown> {
  const { schema, title } = JSON_SCHEMA_KINDS[kind];
  const generated = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: (context) => {
      if (context.zodSchema !== ExpectationSchema || options.metricParams === undefined) return;
      // Written once under $defs and referenced: a suite has expectation lists in five places.
      for (const key of Object.keys(context.jsonSchema)) Reflect.deleteProperty(context.jsonSchema, key);
      Object.assign(context.jsonSchema, { $ref: '#/$defs/expectation' });
    },
  });
  const result: JsonObject = { ...(withoutZodFormats(generated) as JsonObject), title };
  if (options.metricParams !== undefined && JSON.stringify(result).includes('"#/$defs/expectation"')) {
    const definitions = (result['$defs'] ?? {}) as JsonObject;
    definitions['expectation'] = expectationJsonSchema(options.metricParams, options.rubricMetricNames, options.descriptions);
    result['$defs'] = definitions;
  }
  if (options.descriptions !== undefined) describeKeys(result, [], options.descriptions[kind], kind === 'baseline' || kind === 'calibration');
  return result;
}

/** Names of the metrics every suite knows, in the order editors offer them. */
function builtInMetricNames(metricParams: Record<string, z.ZodType>): string[] {
  return Object.keys(metricParams);
}

/**
 * One expectation: `metric` decides which other keys are allowed (if/then per built-in metric,
 * each closed like the metric's own parameter schema; any other metric takes the common keys and
 * the `params:` mapping of a metric written in code).
 */
function expectationJsonSchema(
  metricParams: Record<string, z.ZodType>,
  rubricMetricNames: readonly string[] | undefined,
  descriptions: SchemaDescriptions | undefined,
): JsonObject {
  const builtIns = builtInMetricNames(metricParams);
  const described = (key: string, node: JsonObject): JsonObject => {
    const text = descriptions?.expectation[key];
    return text === undefined ? node : { ...node, description: text };
  };
  const common: JsonObject = {
    metric: true,
    threshold: described('threshold', { type: 'number', minimum: 0, maximum: 1 }),
    gate: described('gate', { type: 'string', enum: ['blocking', 'advisory'] }),
    thresholding: described('thresholding', z.toJSONSchema(ThresholdingSchema, { io: 'input', target: 'draft-2020-12' }) as JsonObject),
  };
  for (const node of Object.values(common)) if (typeof node === 'object' && node !== null) Reflect.deleteProperty(node, '$schema');
  const metricName = (name: string): JsonObject => {
    const text = descriptions?.metrics[name];
    return text === undefined ? { const: name } : { const: name, description: text };
  };
  const names =
    rubricMetricNames === undefined
      ? {
          anyOf: [
            ...builtIns.map(metricName),
            {
              type: 'string',
              pattern: METRIC_NAME_PATTERN.source,
              not: { enum: builtIns },
              description: "a rubric or code metric of the suite's metrics/ folder (checked by parley validate)",
            },
          ],
        }
      : { anyOf: [...builtIns, ...rubricMetricNames.filter((name) => !builtIns.includes(name))].map(metricName) };
  const branches = builtIns.map((name) => {
    const params = z.toJSONSchema(metricParams[name] as z.ZodType, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
    const properties = withoutZodFormats((params['properties'] ?? {}) as JsonObject) as JsonObject;
    for (const [param, node] of Object.entries(properties)) {
      const text = descriptions?.metricParams[`${name}.${param}`];
      if (text !== undefined && typeof node === 'object' && node !== null) properties[param] = { ...(node as JsonObject), description: text };
    }
    const then: JsonObject = { type: 'object', properties: { ...common, ...properties }, additionalProperties: false };
    const required = params['required'];
    if (Array.isArray(required) && required.length > 0) then['required'] = required;
    const oneOfParams = AT_LEAST_ONE_OF[name];
    if (oneOfParams !== undefined) then['anyOf'] = oneOfParams.map((param) => ({ type: 'object', properties: { [param]: true }, required: [param] }));
    const paramDescriptions = Object.fromEntries(
      Object.entries(descriptions?.metricParams ?? {}).flatMap(([key, text]) => (key.startsWith(`${name}.`) ? [[key.slice(name.length + 1), text]] : [])),
    );
    describeKeys(then, [], { ...descriptions?.expectation, ...paramDescriptions }, false);
    return { if: { type: 'object', properties: { metric: { const: name } }, required: ['metric'] }, then };
  });
  return {
    type: 'object',
    ...(descriptions?.expectation['metric'] === undefined ? {} : { description: descriptions.expectation['metric'] }),
    required: ['metric'],
    properties: { metric: { type: 'string', ...names, description: descriptions?.expectation['metric'] ?? 'the metric' } },
    allOf: [
      ...branches,
      {
        if: { type: 'object', properties: { metric: { enum: builtIns } }, required: ['metric'] },
        // Any other metric (a rubric or a metric written in code): the common keys, and `params:`,
        // which only a metric written in code takes (`parley validate` knows which is which).
        else: describedCommon({ type: 'object', properties: { ...common, params: { type: 'object', description: CODE_METRIC_PARAMS_DESCRIPTION } }, additionalProperties: false }, descriptions),
      },
    ],
  };
}

function describedCommon(schema: JsonObject, descriptions: SchemaDescriptions | undefined): JsonObject {
  const copy = structuredClone(schema);
  describeKeys(copy, [], descriptions?.expectation ?? {}, false);
  return copy;
}

/** The `params:` of an expectation of a metric written in code (docs/file-formats.md, "Metrics written in code"). */
const CODE_METRIC_PARAMS_DESCRIPTION =
  "Parameters of a metric written in code (kind: module or command): any mapping, given to the metric as `params`. A rubric metric takes none. See docs/file-formats.md, 'Metrics written in code'.";

/** Built-in metrics that need one of some optional parameters (zod refinements, written out here). */
const AT_LEAST_ONE_OF: Record<string, string[]> = {
  content_signals: ['required', 'forbidden'],
  latency: ['p95_ms', 'max_ms'],
};

/**
 * Adds a `description` to every key, from the path's entry in the reference: an exact path, or the
 * path with names of map entries as `*`; a key the reference does not list on its own is described
 * by its parent's entry ("part of …").
 */
function describeKeys(node: unknown, path: string[], descriptions: Record<string, string>, byKeyName: boolean): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) describeKeys(item, path, descriptions, byKeyName);
    return;
  }
  const schema = node as JsonObject;
  const properties = schema['properties'];
  if (properties !== null && typeof properties === 'object' && !Array.isArray(properties)) {
    for (const [key, child] of Object.entries(properties as JsonObject)) {
      const childPath = [...path, key];
      if (child !== null && typeof child === 'object' && (child as JsonObject)['description'] === undefined) {
        const text = byKeyName ? (descriptions[key] ?? lookup(descriptions, childPath)) : lookup(descriptions, childPath);
        if (text !== undefined) (child as JsonObject)['description'] = text;
      }
      describeKeys(child, childPath, descriptions, byKeyName);
    }
  }
  if (path.length === 0 && schema['$defs'] !== undefined) {
    for (const definition of Object.values(schema['$defs'] as JsonObject)) describeKeys(definition, ['$defs'], descriptions, byKeyName);
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf', 'then', 'else']) describeKeys(schema[keyword], path, descriptions, byKeyName);
  if (schema['items'] !== undefined) describeKeys(schema['items'], [...path, '[]'], descriptions, byKeyName);
  if (typeof schema['additionalProperties'] === 'object') describeKeys(schema['additionalProperties'], [...path, '*'], descriptions, byKeyName);
}

function lookup(descriptions: Record<string, string>, path: readonly string[]): string | undefined {
  const candidates = (segments: readonly string[]): string[] => {
    const forms = [segments.join('.').replace(/\.\[\]/g, '[]')];
    // A map's own names are `*` in the reference (agents.*.model).
    for (let index = 0; index < segments.length; index++) {
      const wild = segments.map((segment, at) => (at === index && segment !== '[]' ? '*' : segment));
      forms.push(wild.join('.').replace(/\.\[\]/g, '[]'));
    }
    return forms;
  };
  for (const form of candidates(path)) if (descriptions[form] !== undefined) return descriptions[form];
  for (let length = path.length - 1; length > 0; length--) {
    const parent = path.slice(0, length);
    for (const form of candidates(parent)) {
      const text = descriptions[form];
      if (text !== undefined) return `Part of ${form.replace(/\*/g, '<name>')}: ${text}`;
    }
  }
  // A mapping the reference lists only by its keys (`user.opening`, `user.script`): name them.
  for (const form of candidates(path)) {
    const children = Object.keys(descriptions).filter((key) => key.startsWith(`${form}.`) || key.startsWith(`${form}[].`));
    if (children.length > 0) {
      const names = [...new Set(children.map((key) => key.slice(form.length).replace(/^(\[\])?\./, '').split(/[.[]/)[0]))];
      return `${form}: ${names.join(', ')} (docs/file-formats.md).`;
    }
  }
  return undefined;
}

const STANDARD_FORMATS = new Set([
  'date-time', 'date', 'time', 'duration', 'email', 'idn-email', 'hostname', 'idn-hostname', 'ipv4', 'ipv6', 'uri',
  'uri-reference', 'iri', 'iri-reference', 'uuid', 'uri-template', 'json-pointer', 'relative-json-pointer', 'regex',
]);

/**
 * zod names some string checks as formats JSON Schema does not define (`startsWith` becomes
 * `format: starts_with` beside the `pattern` that really checks it): validators refuse unknown
 * formats in strict mode, so only standard ones are kept.
 */
function withoutZodFormats(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutZodFormats);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'format' && typeof value === 'string' && !STANDARD_FORMATS.has(value)))
      .map(([key, value]) => [key, withoutZodFormats(value)]),
  );
}

/**
 * A shipped schema with `metric:` closed to the built-ins and a suite's own metrics (rubrics, and
 * metrics written in code: only these take `params:`), so an editor refuses (and completes) metric
 * names as `parley validate` does for that suite. Schemas without expectations are returned unchanged.
 */
export function withSuiteMetricNames(schema: Record<string, unknown>, rubricMetricNames: readonly string[], codeMetricNames: readonly string[] = []): Record<string, unknown> {
  const copy = structuredClone(schema);
  const expectation = (copy['$defs'] as JsonObject | undefined)?.['expectation'] as JsonObject | undefined;
  const metric = expectation?.['properties'] as JsonObject | undefined;
  const names = metric?.['metric'] as JsonObject | undefined;
  const options = names?.['anyOf'];
  if (names === undefined || !Array.isArray(options)) return copy;
  const known = options.filter((option: JsonObject) => option['const'] !== undefined) as JsonObject[];
  const builtIns = new Set(known.map((option) => option['const']));
  const code = new Set(codeMetricNames);
  const rubrics = rubricMetricNames.filter((name) => !builtIns.has(name) && !code.has(name));
  names['anyOf'] = [
    ...known,
    ...rubrics.map((name) => ({ const: name, description: `${name}: a rubric metric of this suite (metrics/${name}.yaml)` })),
    ...[...code].filter((name) => !builtIns.has(name)).map((name) => ({ const: name, description: `${name}: a metric written in code of this suite (metrics/${name}.yaml)` })),
  ];
  // Only a metric written in code takes `params:`; a rubric metric takes the common keys alone.
  if (rubrics.length > 0 && Array.isArray(expectation!['allOf'])) {
    (expectation!['allOf'] as JsonObject[]).push({
      if: { type: 'object', properties: { metric: { enum: rubrics } }, required: ['metric'] },
      then: { properties: { params: false } },
    });
  }
  return copy;
}
