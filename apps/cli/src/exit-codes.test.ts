import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copySuite, parleyIn, recordedGateSuite } from './test-support/gate-suite.js';

/**
 * The exit codes of docs/file-formats.md ("Exit codes"), row by row, through the CLI on a real suite (the gate suite, recorded three times
 * against tools/fake-llm, so that `greeting` is flaky under --repeat 3).
 */
let recorded: string;
let baselineWithoutQ2: string;

beforeAll(async () => {
  recorded = await recordedGateSuite({ repeat: 3 });
  const exporting = copySuite(recorded);
  const exported = await parleyIn(exporting, ['run', '.', '--export-baseline', 'baseline.json', '--out', 'export']);
  expect(exported.code).toBe(0);
  const baseline = JSON.parse(readFileSync(join(exporting, 'baseline.json'), 'utf8')) as { entries: Array<{ test_id: string }> };
  baseline.entries = baseline.entries.filter((entry) => entry.test_id !== 'q_2');
  baselineWithoutQ2 = JSON.stringify(baseline);
});

interface Row {
  name: string;
  args: string[];
  prepare?: (suite: string) => void;
  exit: 0 | 1 | 2;
  /** Something the output must say (stdout + stderr). */
  says?: RegExp;
}

const withBaseline = (suite: string): void => writeFileSync(join(suite, 'baseline.json'), baselineWithoutQ2);
const edit = (suite: string, path: string, change: (text: string) => string): void => {
  const file = join(suite, path);
  writeFileSync(file, change(readFileSync(file, 'utf8')));
};

const rows: Row[] = [
  // exit 0: no fail or error in blocking scenarios; warn and flaky allowed
  {
    name: 'exit 0: warn (missing baseline entry), flaky and an advisory failure are allowed',
    args: ['--repeat', '3', '--baseline', 'baseline.json'],
    prepare: withBaseline,
    exit: 0,
    says: /WARN|warn/,
  },
  { name: 'exit 0: every blocking scenario passes', args: ['--scenario', 'q_*'], exit: 0 },
  // exit 1: any blocking fail or error
  {
    name: 'exit 1: a blocking fail',
    args: ['--scenario', 'greeting'],
    prepare: (suite) => edit(suite, 'scenarios/greeting.yaml', (text) => text.replace('required: ["Karibu"]', 'required: ["Jambo"]')),
    exit: 1,
    says: /✗ greeting \(fail\)/,
  },
  {
    name: 'exit 1: a blocking error (recording miss)',
    args: ['--scenario', 'greeting'],
    prepare: (suite) => edit(suite, 'scenarios/greeting.yaml', (text) => text.replace('hello there', 'good morning')),
    exit: 1,
    says: /✗ greeting \(error\)[\s\S]*recording miss in scenario greeting, turn 1, role agent/,
  },
  // exit 1 with --strict: warn, flaky, missing baseline
  { name: 'exit 1 under --strict: flaky', args: ['--repeat', '3', '--scenario', 'greeting', '--strict'], exit: 1 },
  { name: 'exit 1 under --strict: missing baseline entry', args: ['--baseline', 'baseline.json', '--scenario', 'q_*', '--strict'], prepare: withBaseline, exit: 1 },
  {
    name: 'exit 1 under --strict: warn (a non-blocking expectation failed)',
    args: ['--scenario', 'greeting', '--strict'],
    prepare: (suite) =>
      edit(suite, 'scenarios/greeting.yaml', (text) => `${text}  - { metric: content_signals, required: ["never said"], gate: advisory }\n`),
    exit: 1,
  },
  {
    name: 'the same warn without --strict: exit 0',
    args: ['--scenario', 'greeting'],
    prepare: (suite) =>
      edit(suite, 'scenarios/greeting.yaml', (text) => `${text}  - { metric: content_signals, required: ["never said"], gate: advisory }\n`),
    exit: 0,
  },
  // exit 2: configuration errors
  {
    name: 'exit 2: invalid YAML, with file:line:column',
    args: [],
    prepare: (suite) => writeFileSync(join(suite, 'scenarios', 'greeting.yaml'), 'id: greeting\nagent: greeter\nuser:\n  opening: "unterminated\n'),
    exit: 2,
    says: /error: scenarios\/greeting\.yaml:\d+:\d+: /,
  },
  {
    name: 'exit 2: invalid schema, with file:line:column',
    args: [],
    prepare: (suite) => edit(suite, 'scenarios/greeting.yaml', (text) => text.replace('agent: greeter', 'agent: greeter\ngatee: advisory')),
    exit: 2,
    says: /scenarios\/greeting\.yaml:3:1: .*gatee/,
  },
  {
    name: 'exit 2: unknown agent',
    args: [],
    prepare: (suite) => edit(suite, 'scenarios/greeting.yaml', (text) => text.replace('agent: greeter', 'agent: greeterr')),
    exit: 2,
    says: /scenarios\/greeting\.yaml:2:\d+: .*greeterr/,
  },
  {
    name: 'exit 2: unknown metric',
    args: [],
    prepare: (suite) => edit(suite, 'scenarios/greeting.yaml', (text) => text.replace('metric: content_signals', 'metric: content_signal')),
    exit: 2,
    says: /unknown metric "content_signal".*did you mean "content_signals"/,
  },
  { name: 'exit 2: --baseline with --export-baseline', args: ['--baseline', 'a.json', '--export-baseline', 'b.json'], exit: 2, says: /cannot be used together/ },
  {
    name: 'exit 2: a baseline of another suite',
    args: ['--baseline', 'baseline.json'],
    prepare: (suite) => writeFileSync(join(suite, 'baseline.json'), baselineWithoutQ2.replace('"suite":"gate_demo"', '"suite":"other_suite"')),
    exit: 2,
    says: /baseline of suite "other_suite"|is of suite "other_suite"/,
  },
  {
    name: 'exit 2: a baseline of another schema_version',
    args: ['--baseline', 'baseline.json'],
    prepare: (suite) => writeFileSync(join(suite, 'baseline.json'), baselineWithoutQ2.replace('"schema_version":1', '"schema_version":2')),
    exit: 2,
    says: /schema_version 2.*regenerate it with/,
  },
  { name: 'exit 2: an unreadable file', args: ['--baseline', 'missing.json'], exit: 2, says: /missing\.json: cannot read the baseline: file not found/ },
];

describe('exit codes (docs/file-formats.md), end to end', () => {
  it.each(rows)('$name', async ({ args, prepare, exit, says }) => {
    const suite = copySuite(recorded);
    prepare?.(suite);
    const run = await parleyIn(suite, ['run', '.', '--out', 'out', ...args]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(exit);
    if (says) expect(`${run.stdout}\n${run.stderr}`).toMatch(says);
    if (exit !== 2) {
      const report = JSON.parse(readFileSync(join(suite, 'out', 'report.json'), 'utf8')) as { exit_code: number };
      expect(report.exit_code).toBe(exit);
    }
  });

  it('the first row really has a warn, a flaky and an advisory failure in it', async () => {
    const suite = copySuite(recorded);
    withBaseline(suite);
    await parleyIn(suite, ['run', '.', '--repeat', '3', '--baseline', 'baseline.json', '--out', 'out']);
    const report = JSON.parse(readFileSync(join(suite, 'out', 'report.json'), 'utf8')) as { results: Array<{ scenario_id: string; status: string; gate: string }> };
    expect(report.results.map((result) => [result.scenario_id, result.gate, result.status])).toEqual([
      ['greeting', 'blocking', 'flaky'],
      ['q_1', 'blocking', 'pass'],
      ['q_2', 'blocking', 'warn'],
      ['smalltalk', 'advisory', 'fail'],
    ]);
  });
});
