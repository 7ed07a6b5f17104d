import { mkdtempSync, readFileSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { globSync } from 'tinyglobby';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { fileJsonSchema, JSON_SCHEMA_KINDS, type JsonSchemaKind } from '@parley/config';
import { REPO_ROOT } from '../test-support/example-copy.js';
import { captureOutput } from '../test-support/capture-output.js';
import { main } from '../main.js';

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

function validator(kind: JsonSchemaKind) {
  // The two formats Parley's schemas use, checked as editors do (ajv itself ships no formats).
  const formats = { date: /^\d{4}-\d{2}-\d{2}$/, 'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/ };
  return new Ajv({ strict: true, allErrors: true, formats }).compile(fileJsonSchema(kind));
}

const SCHEMA_LINE = /^# yaml-language-server: \$schema=(\S+)$/m;

/** Every Parley YAML file of the examples and the calibration set (fake-llm scripts are not Parley's). */
function exampleFiles(): string[] {
  return globSync(['examples/**/*.yaml', 'calibration/*.yaml'], { cwd: REPO_ROOT, ignore: ['**/node_modules/**', '**/fake-llm.yaml'] }).sort();
}

describe('parley schema', () => {
  it('prints the JSON Schema of each file kind, as generated from the zod schemas', async () => {
    for (const kind of Object.keys(JSON_SCHEMA_KINDS) as JsonSchemaKind[]) {
      const output = captureOutput();
      expect(await main(['schema', kind], { output })).toBe(0);
      expect(JSON.parse(output.stdout())).toEqual(fileJsonSchema(kind));
    }
    const suite = fileJsonSchema('suite') as { required: string[]; $schema: string };
    expect(suite.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(suite.required).toEqual(['suite', 'agents']);
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
