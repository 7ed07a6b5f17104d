import { z } from 'zod';
import { BaselineSchema } from './baseline-schema.js';
import { CalibrationSetSchema } from './calibration-schema.js';
import { RubricMetricSchema } from './rubric-metric-schema.js';
import { ScenarioSchema } from './scenario-schema.js';
import { SuiteSchema } from './suite-schema.js';

/** The file kinds `parley schema <kind>` prints, each with the file it describes. */
export const JSON_SCHEMA_KINDS = {
  suite: { schema: SuiteSchema, title: 'Parley suite (parley.yaml)' },
  scenario: { schema: ScenarioSchema, title: 'Parley scenario (scenarios/*.yaml)' },
  metric: { schema: RubricMetricSchema, title: 'Parley rubric metric (metrics/*.yaml)' },
  baseline: { schema: BaselineSchema, title: 'Parley baseline (baseline.json)' },
  calibration: { schema: CalibrationSetSchema, title: 'Parley calibration set (calibration/human_labelled.yaml)' },
} as const;

export type JsonSchemaKind = keyof typeof JSON_SCHEMA_KINDS;

export function isJsonSchemaKind(kind: string): kind is JsonSchemaKind {
  return Object.hasOwn(JSON_SCHEMA_KINDS, kind);
}

/**
 * The JSON Schema (draft 2020-12) of a file kind, generated from the zod schema `parley validate`
 * checks with, so editors and Parley agree on required keys, enums and patterns. It describes what
 * a file may contain (zod's input side: keys with defaults are optional). Rules zod checks in code
 * (duplicates, cross-references between files) are only in `parley validate`.
 */
export function fileJsonSchema(kind: JsonSchemaKind): Record<string, unknown> {
  const { schema, title } = JSON_SCHEMA_KINDS[kind];
  const generated = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return { ...(withoutZodFormats(generated) as Record<string, unknown>), title };
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
