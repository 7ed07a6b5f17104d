import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAFFOLD_AGENT_KINDS } from '@parley/config';
import { captureOutput } from '../test-support/capture-output.js';
import { REPO_ROOT } from '../test-support/example-copy.js';
import { YamlLanguageServer, type LanguageServerDiagnostic } from '../test-support/yaml-language-server.js';
import { main } from '../main.js';

/**
 * What an editor says (the real yaml-language-server, reading the schema each file's modeline
 * names from node_modules/parley-eval/schemas/) and what `parley validate` says must agree: a
 * mistake either is refused by both or by neither.
 */

let server: YamlLanguageServer;
beforeAll(async () => {
  server = await YamlLanguageServer.start();
}, 60_000);
afterAll(async () => {
  await server.stop();
});

/** An empty project with parley-eval "installed" (node_modules/parley-eval is this build). */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'parley-agree-'));
  writeFileSync(join(root, 'package.json'), '{ "name": "agree", "private": true }\n');
  mkdirSync(join(root, 'node_modules'));
  symlinkSync(join(REPO_ROOT, 'apps', 'cli'), join(root, 'node_modules', 'parley-eval'), 'dir');
  return root;
}

async function parley(argv: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  const output = captureOutput();
  const code = await main(argv, { cwd, env: {}, output });
  return { code, stderr: output.stderr() };
}

async function editorErrors(file: string): Promise<LanguageServerDiagnostic[]> {
  return (await server.diagnose(file)).filter((diagnostic) => diagnostic.severity === 1);
}

interface Mutation {
  name: string;
  /** file (relative to the suite) → its new text, made from the scaffold's text. */
  edits: Record<string, (text: string) => string>;
  /** Check scenarios against the schema `parley schema scenario --suite .` prints (metric names closed). */
  suiteSchema?: boolean;
  valid: boolean;
}

const WITH_JUDGE = (text: string): string => text.replace('# judge:\n#   primary:', 'judge:\n  primary:');
const SCENARIO = 'scenarios/first_conversation.yaml';
const expectations = (lines: string) => (text: string) => text.replace(/^expect:\n(?:  .*\n)*/m, `expect:\n${lines}`);

const MUTATIONS: Mutation[] = [
  { name: 'the scaffold as written', edits: {}, valid: true },
  { name: 'typo in a parameter: forbiden:', edits: { [SCENARIO]: (text) => text.replace('forbidden:', 'forbiden:') }, valid: false },
  { name: 'wrong parameter type: max: "four"', edits: { [SCENARIO]: (text) => text.replace('max: 4', 'max: "four"') }, valid: false },
  { name: 'parameter out of range: max: 0', edits: { [SCENARIO]: (text) => text.replace('max: 4', 'max: 0') }, valid: false },
  { name: 'parameter of another metric: max_turns with turn: 1', edits: { [SCENARIO]: (text) => text.replace('max: 4', 'max: 4, turn: 1') }, valid: false },
  { name: 'typo in a built-in metric with its parameter: max_turn', edits: { [SCENARIO]: (text) => text.replace('metric: max_turns', 'metric: max_turn') }, valid: false },
  {
    name: 'unknown metric: helpfulnes (schema of the suite)',
    edits: { 'parley.yaml': WITH_JUDGE, [SCENARIO]: expectations('  - { metric: helpfulnes, threshold: 0.7 }\n') },
    suiteSchema: true,
    valid: false,
  },
  {
    name: "the suite's rubric metric: helpfulness",
    edits: { 'parley.yaml': WITH_JUDGE, [SCENARIO]: expectations('  - { metric: helpfulness, threshold: 0.7 }\n') },
    suiteSchema: true,
    valid: true,
  },
  {
    name: 'a rubric metric given a parameter: helpfulness with criteria:',
    edits: { 'parley.yaml': WITH_JUDGE, [SCENARIO]: expectations('  - { metric: helpfulness, criteria: "be kind" }\n') },
    valid: false,
  },
  { name: 'threshold above 1', edits: { [SCENARIO]: (text) => text.replace('max: 4 }', 'max: 4, threshold: 1.5 }') }, valid: false },
  { name: 'gate: blocker in an expectation', edits: { [SCENARIO]: (text) => text.replace('max: 4 }', 'max: 4, gate: blocker }') }, valid: false },
  { name: 'thresholding.mode: relatif', edits: { [SCENARIO]: (text) => text.replace('max: 4 }', 'max: 4, thresholding: { mode: relatif } }') }, valid: false },
  { name: 'regex match: some', edits: { [SCENARIO]: expectations('  - { metric: regex, pattern: "hello", match: some }\n') }, valid: false },
  { name: 'regex without pattern', edits: { [SCENARIO]: expectations('  - { metric: regex, flags: i }\n') }, valid: false },
  { name: 'tool_correctness mode: strict', edits: { [SCENARIO]: expectations('  - { metric: tool_correctness, expected: [], mode: strict }\n') }, valid: false },
  { name: 'latency with neither limit', edits: { [SCENARIO]: expectations('  - { metric: latency }\n') }, valid: false },
  { name: 'latency with a limit', edits: { [SCENARIO]: expectations('  - { metric: latency, p95_ms: 3000 }\n') }, valid: true },
  { name: 'state_path expected: a string', edits: { [SCENARIO]: expectations('  - { metric: state_path, expected: done }\n') }, valid: false },
  { name: 'json_schema message: first', edits: { [SCENARIO]: expectations('  - { metric: json_schema, schema: { type: object }, message: first }\n') }, valid: false },
  {
    name: 'merge key in an expectation (<<: *signals)',
    edits: { [SCENARIO]: expectations('  - &signals { metric: content_signals, forbidden: ["as an AI language model"] }\n  - { <<: *signals, turn: 2 }\n') },
    valid: true,
  },
  {
    name: 'merge key bringing a typo (<<: *bad)',
    edits: { [SCENARIO]: expectations('  - &bad { metric: max_turns, max: 4 }\n  - { <<: *bad, maxx: 3 }\n') },
    valid: false,
  },
  {
    name: 'merge key in parley.yaml agents (<<: *base)',
    edits: {
      'parley.yaml': (text) => text.replace(/^agents:\n {2}assistant:\n/m, 'agents:\n  assistant: &base\n').concat(''),
    },
    valid: true,
  },
  { name: 'agent kind: modul', edits: { 'parley.yaml': (text) => text.replace('kind: module', 'kind: modul') }, valid: false },
  { name: 'unknown top-level key in parley.yaml: sutie', edits: { 'parley.yaml': (text) => `${text}sutie: x\n` }, valid: false },
  { name: 'settings.concurrency: "4"', edits: { 'parley.yaml': (text) => `${text}settings: { concurrency: "4" }\n` }, valid: false },
  { name: 'scenario without agent', edits: { [SCENARIO]: (text) => text.replace(/^agent: .*\n/m, '') }, valid: false },
  { name: 'user.script as a string', edits: { [SCENARIO]: (text) => text.replace(/script:\n {4}- /, 'script: ') }, valid: false },
  { name: 'variants: vars: { lang: [en, sw] }', edits: { [SCENARIO]: (text) => `${text}vars: { lang: [en, sw] }\n` }, valid: true },
  { name: 'variants: a value with a space ("en gb")', edits: { [SCENARIO]: (text) => `${text}vars: { lang: ["en gb"] }\n` }, valid: false },
  { name: 'variants: cases: as one mapping, not a list', edits: { [SCENARIO]: (text) => `${text}cases: { lang: en }\n` }, valid: false },
  { name: 'variants: cases: [{ lang: en }, { lang: sw }]', edits: { [SCENARIO]: (text) => `${text}cases: [{ lang: en }, { lang: sw }]\n` }, valid: true },
  { name: 'scenario gate: blocker', edits: { [SCENARIO]: (text) => text.replace('gate: blocking', 'gate: blocker') }, valid: false },
  { name: 'metric file scale: "1-5"', edits: { 'metrics/helpfulness.yaml': (text) => text.replace('scale: { min: 1, max: 5 }', 'scale: "1-5"') }, valid: false },
  { name: 'metric file applies_to: each_message', edits: { 'metrics/helpfulness.yaml': (text) => text.replace('applies_to: conversation', 'applies_to: each_message') }, valid: false },
  { name: 'metric file criterion level: optional', edits: { 'metrics/helpfulness.yaml': (text) => text.replace('level: recommended', 'level: optional') }, valid: false },
  { name: 'code metric file kind: modul', edits: { 'metrics/helpfulness.yaml': asCodeMetric('kind: modul\nmodule: metric.mjs\n') }, valid: false },
  { name: 'code metric file kind: command without command:', edits: { 'metrics/helpfulness.yaml': asCodeMetric('kind: command\n') }, valid: false },
  { name: 'code metric file kind: command with timeout_ms: "5s"', edits: { 'metrics/helpfulness.yaml': asCodeMetric('kind: command\ncommand: [python3, metric.py]\ntimeout_ms: "5s"\n') }, valid: false },
  {
    name: 'code metric (kind: command) used with params:',
    edits: {
      'metrics/helpfulness.yaml': asCodeMetric('kind: command\ncommand: [python3, metric.py]\n'),
      [SCENARIO]: expectations('  - { metric: helpfulness, params: { min_words: 3 } }\n'),
    },
    valid: true,
  },
  {
    name: 'a rubric metric given params: (schema of the suite)',
    edits: { 'parley.yaml': WITH_JUDGE, [SCENARIO]: expectations('  - { metric: helpfulness, params: { min_words: 3 } }\n') },
    suiteSchema: true,
    valid: false,
  },
  {
    name: 'code metric used with params: (schema of the suite)',
    edits: {
      'metrics/helpfulness.yaml': asCodeMetric('kind: command\ncommand: [python3, metric.py]\n'),
      [SCENARIO]: expectations('  - { metric: helpfulness, params: { min_words: 3 } }\n'),
    },
    suiteSchema: true,
    valid: true,
  },
];

/** The metric file's modeline kept, the rest replaced by a metric written in code with these keys. */
function asCodeMetric(keys: string): (text: string) => string {
  return (text) => `${text.split('\n')[0]}\nname: helpfulness\nversion: 1.0.0\n${keys}`;
}

/** A second agent merged from the first (the row "merge key in parley.yaml agents"). */
function withMergedAgent(text: string): string {
  return text.includes('&base') ? text.replace(/\n# An LLM judge/, '\n  second:\n    <<: *base\n    timeout_ms: 1000\n# An LLM judge') : text;
}

const rows: string[] = [];

describe('the editor (yaml-language-server) and parley validate agree', () => {
  it.each(MUTATIONS)('$name', async (mutation) => {
    const root = project();
    expect((await parley(['init', 'suite', '--agent-kind', 'module', '--yes'], root)).code).toBe(0);
    const suite = join(root, 'suite');
    const touched = Object.keys(mutation.edits).length > 0 ? Object.keys(mutation.edits) : ['parley.yaml', SCENARIO, 'metrics/helpfulness.yaml'];
    for (const [file, edit] of Object.entries(mutation.edits)) {
      const path = join(suite, file);
      writeFileSync(path, withMergedAgent(edit(readFileSync(path, 'utf8'))));
    }
    if (mutation.suiteSchema) {
      const output = captureOutput();
      expect(await main(['schema', 'scenario', '--suite', '.'], { cwd: suite, env: {}, output })).toBe(0);
      writeFileSync(join(suite, 'scenario.schema.json'), output.stdout());
      const path = join(suite, SCENARIO);
      writeFileSync(path, readFileSync(path, 'utf8').replace(/\$schema=\S+/, '$schema=../scenario.schema.json'));
    }

    const validate = await parley(['validate', '.'], suite);
    const editor = (await Promise.all(touched.map(async (file) => (await editorErrors(join(suite, file))).map((error) => `${file}:${error.line + 1}: ${error.message}`)))).flat();
    const validateSays = validate.stderr.split('\n').find((line) => /: (error|warning)?/.test(line) && line.includes('.yaml')) ?? '';
    rows.push(
      `| ${mutation.name} | ${editor.length === 0 ? 'accepts' : `refuses: ${editor[0]?.replace(/\|/g, '\\|')}`} | ${validate.code === 0 ? 'accepts' : `refuses (exit ${validate.code}): ${validateSays.replace(/^.*?suite\//, '').replace(/\|/g, '\\|')}`} |`,
    );
    expect({ editor: editor.length === 0, validate: validate.code === 0 }, `${editor.join('\n')}\n${validate.stderr}`).toEqual({
      editor: mutation.valid,
      validate: mutation.valid,
    });
  }, 60_000);

  afterAll(() => {
    const table = process.env['PARLEY_AGREEMENT_TABLE'];
    if (table !== undefined) writeFileSync(table, ['| mutation | yaml-language-server | parley validate |', '| --- | --- | --- |', ...rows].join('\n') + '\n');
  });
});

describe('files that are right are right for both', () => {
  it.each([...SCAFFOLD_AGENT_KINDS])('every file init writes for a %s agent', async (kind) => {
    const root = project();
    expect((await parley(['init', 'suite', '--agent-kind', kind, '--yes'], root)).code).toBe(0);
    const suite = join(root, 'suite');
    for (const file of globSync(['**/*.yaml'], { cwd: suite })) expect(await editorErrors(join(suite, file)), file).toEqual([]);
    expect((await parley(['validate', '.'], suite)).code).toBe(0);
  }, 60_000);

  it('every example file', async () => {
    const files = globSync(['examples/**/*.yaml', 'calibration/*.yaml'], { cwd: REPO_ROOT, ignore: ['**/node_modules/**', '**/fake-llm.yaml'] });
    expect(files.length).toBeGreaterThanOrEqual(30);
    for (const file of files) expect(await editorErrors(join(REPO_ROOT, file)), file).toEqual([]);
  }, 120_000);
});

describe('what the editor offers', () => {
  it('completes metric names and shows the reference on hover', async () => {
    const root = project();
    expect((await parley(['init', 'suite', '--agent-kind', 'module', '--yes'], root)).code).toBe(0);
    const file = join(root, 'suite', SCENARIO);
    const text = readFileSync(file, 'utf8').replace(/^expect:\n(?:  .*\n)*/m, 'expect:\n  - metric: \n');
    const line = text.split('\n').findIndex((entry) => entry === '  - metric: ');
    expect(await server.complete(file, text, line, '  - metric: '.length)).toEqual(
      expect.arrayContaining(['content_signals', 'tool_correctness', 'max_turns', 'state_path', 'conversation_judge']),
    );
    const withMax = text.replace('  - metric: \n', '  - metric: max_turns\n    max: 4\n');
    const hover = await server.hover(file, withMax, line + 1, 5);
    expect(hover).toContain('Passes when the number of user messages is at most');
    expect(readFileSync(join(REPO_ROOT, 'docs', 'file-formats.md'), 'utf8')).toContain('Passes when the number of user messages is at most');
  }, 60_000);
});
