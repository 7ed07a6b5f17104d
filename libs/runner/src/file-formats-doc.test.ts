import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  BaselineSchema,
  CalibrationSetSchema,
  CommandMetricSchema,
  ExpectationSchema,
  ModuleMetricSchema,
  RecordingEntrySchema,
  RubricMetricSchema,
  ScenarioSchema,
  SuiteSchema,
  ToolsFileSchema,
} from '@parley/config';
import { metricParamSchemas } from './metric-catalog.js';

/**
 * docs/file-formats.md is the user's reference for every file Parley reads: every key of every
 * file-format schema must be documented in its section, and every key the section's key tables
 * list must exist. A key added to a schema without a word in the docs fails here, saying which
 * key to document in which section.
 */

const DOC = 'docs/file-formats.md';
const text = readFileSync(fileURLToPath(new URL(`../../../${DOC}`, import.meta.url)), 'utf8');

/** Each section of the doc (by its `## N.` heading) and the schemas whose keys it documents. */
const SECTIONS: { heading: string; schemas: Record<string, z.core.$ZodType> }[] = [
  { heading: '## 1. Suite', schemas: { SuiteSchema } },
  { heading: '## 2. Scenario', schemas: { ScenarioSchema } },
  { heading: '## 3. Tools file', schemas: { ToolsFileSchema } },
  {
    heading: '## 4. Expectations',
    schemas: { ExpectationSchema, ...Object.fromEntries(Object.entries(metricParamSchemas()).map(([name, schema]) => [`${name} parameters`, schema])) },
  },
  { heading: '## 5. Recordings', schemas: { RecordingEntrySchema } },
  { heading: '## 6. Custom rubric metric', schemas: { RubricMetricSchema, ModuleMetricSchema, CommandMetricSchema } },
  { heading: '## 7. Baseline and calibration', schemas: { BaselineSchema, CalibrationSetSchema } },
];

/**
 * Every key path of a schema: `settings.retries.max`, `agents.*.model` (`*` for a map's own
 * names), `items.ratings.reviewer` (list items add no segment). Options of unions are merged.
 */
function keyPaths(schema: z.core.$ZodType, prefix: string[] = [], seen = new Set<z.core.$ZodType>()): string[][] {
  if (seen.has(schema)) return [];
  const inner = new Set(seen).add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown>;
  if (schema instanceof z.core.$ZodObject) {
    return Object.entries(schema._zod.def.shape).flatMap(([key, value]) => [[...prefix, key], ...keyPaths(value, [...prefix, key], inner)]);
  }
  if (schema instanceof z.core.$ZodRecord) return keyPaths(schema._zod.def.valueType, [...prefix, '*'], inner);
  if (schema instanceof z.core.$ZodArray) return keyPaths(schema._zod.def.element, prefix, inner);
  if (schema instanceof z.core.$ZodUnion) return schema._zod.def.options.flatMap((option) => keyPaths(option, prefix, inner));
  if (schema instanceof z.core.$ZodIntersection) return [...keyPaths(schema._zod.def.left, prefix, inner), ...keyPaths(schema._zod.def.right, prefix, inner)];
  if (schema instanceof z.core.$ZodPipe) return keyPaths(schema._zod.def.in, prefix, inner);
  for (const wrapped of ['innerType', 'schema']) {
    const candidate = def[wrapped];
    if (candidate instanceof z.core.$ZodType) return keyPaths(candidate, prefix, inner);
  }
  if (schema instanceof z.core.$ZodLazy) return keyPaths(schema._zod.def.getter(), prefix, inner);
  return [];
}

function sectionText(heading: string): string {
  const start = text.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`${DOC} has no section starting "${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** Every word written in backticks in a text: `a.b`, `{x, y}` and `key: value` spans all count. */
function wordsInCode(section: string): Set<string> {
  const words = new Set<string>();
  const prose = section.replace(/```[\s\S]*?```/g, '');
  for (const [, span] of prose.matchAll(/`([^`]+)`/g)) for (const [word] of span!.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) words.add(word);
  // YAML and JSON examples document keys too.
  for (const [, block] of section.matchAll(/```(?:ya?ml|json)\n([\s\S]*?)```/g)) {
    for (const [, key] of block!.matchAll(/"?([A-Za-z_][A-Za-z0-9_]*)"?\s*:/g)) words.add(key!);
  }
  return words;
}

const KEY_TABLE_HEADERS = new Set(['key', 'field', 'param', 'common key']);
const KEY_PATH = /^\.?[A-Za-z_][A-Za-z0-9_]*(?:\.(?:<[^>]+>|[A-Za-z_][A-Za-z0-9_]*|\*))*$/;

/** The key paths listed in the first column of the section's key tables (`.setup` continues the path before it). */
function documentedKeyPaths(section: string): string[] {
  const paths: string[] = [];
  let inKeyTable = false;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) {
      inKeyTable = false;
      continue;
    }
    const firstCell = line.split('|')[1]!.trim();
    if (/^-+$/.test(firstCell)) continue;
    if (!firstCell.includes('`')) {
      inKeyTable = KEY_TABLE_HEADERS.has(firstCell.toLowerCase());
      continue;
    }
    if (!inKeyTable) continue;
    let previous: string[] = [];
    for (const [, span] of firstCell.matchAll(/`([^`]+)`/g)) {
      const written = span!.replace(/\[\]/g, '');
      if (!KEY_PATH.test(written)) continue;
      const segments = written.replace(/<[^>]+>/g, '*').split('.');
      const path = segments[0] === '' ? [...previous.slice(0, -1), ...segments.slice(1)] : segments;
      paths.push(path.join('.'));
      previous = path;
    }
  }
  return paths;
}

describe(`${DOC} documents every key of every file format`, () => {
  for (const { heading, schemas } of SECTIONS) {
    it(`${heading}: every schema key is documented, and every documented key exists`, () => {
      const section = sectionText(heading);
      const words = wordsInCode(section);
      const known = new Map<string, string>();
      const undocumented: string[] = [];
      for (const [name, schema] of Object.entries(schemas)) {
        for (const path of keyPaths(schema)) {
          const dotted = path.join('.');
          if (known.has(dotted)) continue;
          known.set(dotted, name);
          // An expectation's own keys are documented once, under Expectations, wherever expectations are written.
          if (path.indexOf('expect') >= 0 && path.indexOf('expect') < path.length - 1) continue;
          const leaf = path[path.length - 1]!;
          if (!words.has(leaf)) undocumented.push(`key "${dotted}" of ${name}: document \`${dotted}\` in the "${heading}" section of ${DOC}`);
        }
      }
      expect(undocumented, `undocumented keys:\n${undocumented.join('\n')}`).toEqual([]);
      const unknown = documentedKeyPaths(section)
        .filter((path) => !known.has(path) && !known.has(path.split('.').slice(1).join('.')))
        .map((path) => `"${path}" is listed in the "${heading}" section of ${DOC} but no schema of that file has it: fix or remove the row`);
      expect(unknown, `documented keys that do not exist:\n${unknown.join('\n')}`).toEqual([]);
    });
  }
});
