import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, formatIssue } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { configFingerprint } from './config-fingerprint.js';
import { loadSuite } from './load-suite.js';
import { METRIC_PARAMS, writeFiles } from './test-support/suite-fixture.js';

const SUITE = `suite: desk\nagents:\n  desk: { kind: openai, model: gpt-4.1-mini }\n`;
const MODULE_METRIC = `name: reference\nversion: 1.0.0\nkind: module\nmodule: metrics/reference.ts\n`;
const COMMAND_METRIC = `name: slot\nversion: 1.0.0\nkind: command\ncommand: [python3, metrics/slot.py, --strict]\n`;
const scenario = (expect: string) => `id: booking\nagent: desk\nuser: { opening: "Hi" }\nexpect:\n${expect}`;

function issuesOf(files: Record<string, string>): string[] {
  const dir = writeFiles(files);
  try {
    loadSuite(dir, { metricParams: METRIC_PARAMS });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.issues.map((issue) => formatIssue({ ...issue, file: issue.file.slice(dir.length + 1) }));
  }
}

const CODE_SUITE = {
  'parley.yaml': SUITE,
  'metrics/reference.yaml': MODULE_METRIC,
  'metrics/reference.ts': 'export default { evaluate() { return { score: 1, passed: true, reason: "ok" }; } };\n',
  'metrics/slot.yaml': COMMAND_METRIC,
  'metrics/slot.py': 'print("{}")\n',
  'scenarios/booking.yaml': scenario('  - { metric: reference, params: { prefix: BK- } }\n  - metric: slot\n'),
};

describe('metrics written in code while loading a suite', () => {
  it('loads both kinds with their code files (a command’s arguments that name files), apart from the rubric metrics', () => {
    const dir = writeFiles(CODE_SUITE);
    const suite = loadSuite(dir, { metricParams: METRIC_PARAMS });
    expect(suite.customMetrics).toEqual([]);
    expect(suite.codeMetrics.map((metric) => [metric.data.name, metric.data.kind, metric.codeFiles])).toEqual([
      ['reference', 'module', [join(dir, 'metrics/reference.ts')]],
      ['slot', 'command', [join(dir, 'metrics/slot.py')]],
    ]);
    expect(suite.scenarios[0]!.expectations.map((expectation) => expectation.metric)).toEqual(['reference', 'slot']);
  });

  it('an edit to a metric’s code changes the configuration fingerprint under the same version; rewriting it back restores it', () => {
    const dir = writeFiles(CODE_SUITE);
    const fingerprint = () => configFingerprint(loadSuite(dir, { metricParams: METRIC_PARAMS }), {});
    const before = fingerprint();
    writeFileSync(join(dir, 'metrics/slot.py'), 'print("{ }")\n');
    const edited = fingerprint();
    expect(edited).not.toBe(before);
    writeFileSync(join(dir, 'metrics/reference.ts'), 'export default { evaluate() { return { score: 0, passed: false, reason: "no" }; } };\n');
    expect(fingerprint()).not.toBe(edited);
    writeFileSync(join(dir, 'metrics/slot.py'), CODE_SUITE['metrics/slot.py']);
    writeFileSync(join(dir, 'metrics/reference.ts'), CODE_SUITE['metrics/reference.ts']);
    expect(fingerprint()).toBe(before);
  });

  it('reports a bad metric file at its file:line:column: unknown kind, missing module, wrong extension, missing cwd, unknown key', () => {
    expect(issuesOf({ ...CODE_SUITE, 'metrics/reference.yaml': MODULE_METRIC.replace('kind: module', 'kind: modul') })).toEqual([
      'metrics/reference.yaml:3:7: unknown metric kind "modul": use rubric (the default), module or command (did you mean "module"?)',
    ]);
    expect(issuesOf({ ...CODE_SUITE, 'metrics/reference.yaml': MODULE_METRIC.replace('reference.ts', 'missing.ts') })).toEqual([
      'metrics/reference.yaml:4:9: the module "metrics/missing.ts" does not exist (paths are relative to the suite folder)',
    ]);
    expect(issuesOf({ ...CODE_SUITE, 'metrics/reference.yaml': MODULE_METRIC.replace('reference.ts', 'slot.py') })).toEqual([
      'metrics/reference.yaml:4:9: a module metric is a .js, .mjs, .cjs, .ts, .mts or .cts file, not "slot.py"',
    ]);
    expect(issuesOf({ ...CODE_SUITE, 'metrics/slot.yaml': `${COMMAND_METRIC}cwd: tools\n` })).toEqual([
      'metrics/slot.yaml:5:6: the folder "tools" does not exist (paths are relative to the suite folder)',
    ]);
    const unknownKey = issuesOf({ ...CODE_SUITE, 'metrics/slot.yaml': `${COMMAND_METRIC}rubric: Judge it.\n` });
    expect(unknownKey).toHaveLength(1);
    expect(unknownKey[0]).toMatch(/^metrics\/slot\.yaml:5:1: unknown key "rubric"/);
    expect(issuesOf({ ...CODE_SUITE, 'metrics/slot.yaml': COMMAND_METRIC.replace('version: 1.0.0\n', '') })[0]).toMatch(/^metrics\/slot\.yaml:1:1: .*version/);
  });

  it('takes parameters under params: for a code metric only', () => {
    const rubric = `name: tone\nversion: 1.0.0\nscale: { min: 1, max: 5 }\napplies_to: conversation\nrubric: Judge it.\n`;
    const judged = `${SUITE}judge:\n  primary: { provider: anthropic, model: claude-sonnet-4-6 }\n`;
    expect(issuesOf({ ...CODE_SUITE, 'parley.yaml': judged, 'metrics/tone.yaml': rubric, 'scenarios/booking.yaml': scenario('  - { metric: tone, params: { x: 1 } }\n') })[0]).toMatch(
      /^scenarios\/booking\.yaml:5:21: unknown key "params"/,
    );
    expect(issuesOf({ ...CODE_SUITE, 'scenarios/booking.yaml': scenario('  - { metric: slot, prefix: BK- }\n') })[0]).toMatch(/^scenarios\/booking\.yaml:5:21: unknown key "prefix"/);
    expect(issuesOf({ ...CODE_SUITE, 'scenarios/booking.yaml': scenario('  - { metric: slot, params: [1] }\n') })[0]).toMatch(/^scenarios\/booking\.yaml:5:/);
  });
});
