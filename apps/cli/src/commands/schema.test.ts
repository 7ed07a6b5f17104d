import { mkdtempSync, readFileSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { globSync } from 'tinyglobby';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { fileJsonSchema, JSON_SCHEMA_KINDS, readSchemaDescriptions, type JsonSchemaKind } from '@parley/config';
import { REPO_ROOT } from '../test-support/example-copy.js';
import { captureOutput } from '../test-support/capture-output.js';
import { main } from '../main.js';
import { SCHEMA_KINDS } from './schema.js';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}
interface Ajv2020 {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: AjvError[] | null };
}
// ajv 8 (the package's own dependency; the repository root holds eslint's ajv 6).
const Ajv = createRequire(import.meta.url)('ajv/dist/2020').default as new (options: object) => Ajv2020;

const { metricParamSchemas } = await import('@parley/runner');

/** The schema as scripts/write-schemas.mjs writes it into the package's schemas/. */
function shippedSchema(kind: JsonSchemaKind): Record<string, unknown> {
  const descriptions = readSchemaDescriptions(readFileSync(join(REPO_ROOT, 'docs', 'file-formats.md'), 'utf8'));
  return fileJsonSchema(kind, { metricParams: metricParamSchemas(), descriptions });
}

/** Paths of the keys (properties) in a JSON Schema that have no description. */
function undescribedKeys(node: unknown, path: string, found: string[] = []): string[] {
  if (node === null || typeof node !== 'object') return found;
  if (Array.isArray(node)) {
    for (const item of node) undescribedKeys(item, path, found);
    return found;
  }
  const schema = node as Record<string, unknown>;
  for (const [key, child] of Object.entries((schema['properties'] ?? {}) as Record<string, unknown>)) {
    if (child !== null && typeof child === 'object' && typeof (child as { description?: unknown }).description !== 'string') found.push(`${path}.${key}`);
    undescribedKeys(child, `${path}.${key}`, found);
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf', 'then', 'else', 'items', 'additionalProperties', '$defs']) {
    const child = schema[keyword];
    if (keyword === '$defs' && child !== undefined) for (const [name, definition] of Object.entries(child as object)) undescribedKeys(definition, `$defs.${name}`, found);
    else undescribedKeys(child, path, found);
  }
  return found;
}

function validator(kind: JsonSchemaKind) {
  // The two formats Parley's schemas use, checked as editors do (ajv itself ships no formats).
  const formats = { date: /^\d{4}-\d{2}-\d{2}$/, 'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/ };
  return new Ajv({ strict: true, allErrors: true, formats }).compile(shippedSchema(kind));
}

const SCHEMA_LINE = /^# yaml-language-server: \$schema=(\S+)$/m;

/** Every Parley YAML file of the examples and the calibration set (fake-llm scripts are not Parley's). */
function exampleFiles(): string[] {
  return globSync(['examples/**/*.yaml', 'calibration/*.yaml'], { cwd: REPO_ROOT, ignore: ['**/node_modules/**', '**/fake-llm.yaml'] }).sort();
}

describe('parley schema <kind>', () => {
  it('offers exactly the kinds @parley/config has a schema for', () => {
    expect([...SCHEMA_KINDS].sort()).toEqual(Object.keys(JSON_SCHEMA_KINDS).sort());
  });
});

describe('parley schema', () => {
  it('prints the JSON Schema of each file kind: the shipped file, as generated from the zod schemas and docs/file-formats.md', async () => {
    for (const kind of Object.keys(JSON_SCHEMA_KINDS) as JsonSchemaKind[]) {
      const output = captureOutput();
      expect(await main(['schema', kind], { output })).toBe(0);
      expect(JSON.parse(output.stdout())).toEqual(shippedSchema(kind));
      expect(JSON.parse(readFileSync(join(REPO_ROOT, 'apps', 'cli', 'schemas', `${kind}.schema.json`), 'utf8'))).toEqual(shippedSchema(kind));
    }
    const suite = shippedSchema('suite') as { required: string[]; $schema: string };
    expect(suite.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(suite.required).toEqual(['suite', 'agents']);
  });

  it('describes every key, from docs/file-formats.md', () => {
    for (const kind of Object.keys(JSON_SCHEMA_KINDS) as JsonSchemaKind[]) expect(undescribedKeys(shippedSchema(kind), kind), kind).toEqual([]);
    const suite = shippedSchema('suite') as { properties: { settings: { properties: { concurrency: { description: string } } } } };
    const formats = readFileSync(join(REPO_ROOT, 'docs', 'file-formats.md'), 'utf8');
    expect(formats).toContain('`--concurrency` overrides it');
    expect(suite.properties.settings.properties.concurrency.description).toContain('`--concurrency` overrides it');
  });

  it('--suite closes metric names to the built-ins and the suite\'s rubric metrics', async () => {
    const output = captureOutput();
    expect(await main(['schema', 'scenario', '--suite', join(REPO_ROOT, 'examples', 'booking')], { output })).toBe(0);
    const schema = JSON.parse(output.stdout()) as { $defs: { expectation: { properties: { metric: { anyOf: Array<{ const?: string; pattern?: string }> } } } } };
    const names = schema.$defs.expectation.properties.metric.anyOf;
    expect(names.every((name) => name.pattern === undefined)).toBe(true);
    expect(names.map((name) => name.const)).toEqual(expect.arrayContaining(['max_turns', 'conversation_judge', 'booking_slot_consistency']));
    const shipped = shippedSchema('scenario') as typeof schema;
    expect(shipped.$defs.expectation.properties.metric.anyOf.at(-1)?.pattern).toBe('^[a-z][a-z0-9_]*$');
  });

  it('refuses an unknown kind with exit 2 and the kinds it knows', async () => {
    const output = captureOutput();
    expect(await main(['schema', 'scenarios'], { output })).toBe(2);
    expect(output.stderr()).toContain('Allowed choices are suite, scenario, metric, baseline, calibration');
  });
});

describe('the JSON Schemas and the example files', () => {
  const files = exampleFiles();

  it('finds the example files', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  it.each(files)('%s names its schema and validates against it', (file) => {
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    const reference = SCHEMA_LINE.exec(text.split('\n')[0] ?? '')?.[1];
    expect(reference, 'first line: # yaml-language-server: $schema=…').toBeDefined();
    const target = resolve(dirname(join(REPO_ROOT, file)), reference!);
    expect(relative(REPO_ROOT, dirname(target))).toBe(join('apps', 'cli', 'schemas'));
    const kind = basename(target, '.schema.json') as JsonSchemaKind;
    expect(Object.keys(JSON_SCHEMA_KINDS)).toContain(kind);
    const validate = validator(kind);
    expect(validate(parse(text)), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });
});

describe('a schema violation is the problem parley validate reports', () => {
  it('names the same missing key and the same allowed values', async () => {
    const suite = mkdtempSync(join(tmpdir(), 'parley-schema-'));
    cpSync(join(REPO_ROOT, 'examples', 'service-agents'), suite, { recursive: true });
    const file = join(suite, 'scenarios', 'command_booking.yaml');
    const broken = readFileSync(file, 'utf8').replace(/^agent: .*\n/m, '').concat('gate: blocker\n');
    writeFileSync(file, broken);

    const validate = validator('scenario');
    expect(validate(parse(broken))).toBe(false);
    const errors = validate.errors ?? [];
    const missing = errors.find((error) => error.keyword === 'required');
    const badEnum = errors.find((error) => error.keyword === 'enum' && error.instancePath === '/gate');
    expect(missing?.params.missingProperty).toBe('agent');
    expect(badEnum?.params.allowedValues).toEqual(['blocking', 'advisory']);

    const output = captureOutput();
    expect(await main(['validate', suite], { output, cwd: suite })).toBe(2);
    expect(output.stderr()).toContain('scenarios/command_booking.yaml:2:1: missing required key "agent"');
    expect(output.stderr()).toContain(`"gate" must be one of ${(badEnum?.params.allowedValues as string[]).join(', ')}, got string "blocker"`);
  });

  it('gives an agent kind the same choices', async () => {
    const suite = mkdtempSync(join(tmpdir(), 'parley-schema-'));
    cpSync(join(REPO_ROOT, 'examples', 'service-agents'), suite, { recursive: true });
    const file = join(suite, 'parley.yaml');
    const broken = readFileSync(file, 'utf8').replace('kind: command', 'kind: comand');
    writeFileSync(file, broken);

    const validate = validator('suite');
    expect(validate(parse(broken))).toBe(false);
    const kinds = (validate.errors ?? []).flatMap((error) =>
      error.instancePath === '/agents/receptionist_command/kind' ? [error.params.allowedValue ?? error.params.allowedValues].flat() : [],
    );
    const output = captureOutput();
    expect(await main(['validate', suite], { output, cwd: suite })).toBe(2);
    expect(output.stderr()).toContain(`"kind" must be one of ${kinds.join(', ')}, got string "comand"`);
  });
});
