import { ConfigError, formatIssue } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { configFingerprint } from './config-fingerprint.js';
import { loadSuite } from './load-suite.js';
import { METRIC_PARAMS, writeFiles } from './test-support/suite-fixture.js';

const JUDGED_SUITE = `suite: langs
agents:
  desk: { kind: openai, model: gpt-4.1-mini }
judge:
  primary: { provider: anthropic, model: claude-sonnet-4-6 }
`;
const scenario = (id: string, language: string) => `id: ${id}\nagent: desk\nlanguage: ${language}\nuser: { opening: "Hi" }\n`;
const rubric = (name: string, extra = '') =>
  `name: ${name}\nversion: 1.0.0\nscale: { min: 1, max: 5 }\napplies_to: each_assistant_message\nrubric: Judge it.\n${extra}`;

function issuesOf(files: Record<string, string>): string[] {
  const dir = writeFiles(files);
  try {
    return loadSuite(dir, { metricParams: METRIC_PARAMS }).warnings.map((issue) => formatIssue({ ...issue, file: issue.file.slice(dir.length + 1) }));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.issues.map((issue) => formatIssue({ ...issue, file: issue.file.slice(dir.length + 1) }));
  }
}

describe('fluency metrics while loading a suite', () => {
  it('warns at the language of a scenario that no fluency metric judges, when the suite has a judge', () => {
    const warnings = issuesOf({ 'parley.yaml': JUDGED_SUITE, 'scenarios/xhosa.yaml': scenario('xhosa', 'xh'), 'scenarios/swahili.yaml': scenario('swahili', 'sw') });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^scenarios\/xhosa\.yaml:3:\d+: no fluency metric judges language "xh": add metrics\/fluency_xh\.yaml/);
  });

  it('is silent for a suite without a judge, and once the suite has its own rubric for the language', () => {
    expect(issuesOf({ 'parley.yaml': 'suite: s\nagents:\n  desk: { kind: openai, model: m }\n', 'scenarios/xhosa.yaml': scenario('xhosa', 'xh') })).toEqual([]);
    expect(issuesOf({ 'parley.yaml': JUDGED_SUITE, 'scenarios/xhosa.yaml': scenario('xhosa', 'xh'), 'metrics/fluency_xh.yaml': rubric('fluency_xh') })).toEqual([]);
  });

  it('refuses a suite metric named like a built-in fluency metric and says how to replace it', () => {
    const issues = issuesOf({ 'parley.yaml': JUDGED_SUITE, 'metrics/fluency_en.yaml': rubric('fluency_en') });
    expect(issues).toEqual([expect.stringMatching(/^metrics\/fluency_en\.yaml:\d+:\d+: "fluency_en" is a built-in metric: give your rubric its own name \(e\.g\. fluency_en_local\) and write "replaces: fluency_en"/)]);
  });

  it('lets one suite metric replace a built-in fluency metric, refuses a second, and counts the replacement in the fingerprint', () => {
    const files = {
      'parley.yaml': JUDGED_SUITE,
      'scenarios/hello.yaml': scenario('hello', 'en'),
      'metrics/fluency_en_za.yaml': rubric('fluency_en_za', 'replaces: fluency_en\n'),
    };
    expect(issuesOf(files)).toEqual([]);
    const dir = writeFiles(files);
    const suite = loadSuite(dir, { metricParams: METRIC_PARAMS });
    const bumped = writeFiles({ ...files, 'metrics/fluency_en_za.yaml': rubric('fluency_en_za', 'replaces: fluency_en\n').replace('1.0.0', '1.1.0') });
    expect(configFingerprint(loadSuite(bumped, { metricParams: METRIC_PARAMS }), { fluency_en: '1.0.0' })).not.toBe(configFingerprint(suite, { fluency_en: '1.0.0' }));

    const twice = issuesOf({ ...files, 'metrics/fluency_en_zz.yaml': rubric('fluency_en_zz', 'replaces: fluency_en\n') });
    expect(twice).toEqual([expect.stringMatching(/^metrics\/fluency_en_zz\.yaml:6:11: "fluency_en_za" already replaces fluency_en: only one metric can/)]);
    expect(issuesOf({ 'parley.yaml': JUDGED_SUITE, 'metrics/tone.yaml': rubric('tone', 'replaces: tone_checker\n') })).toEqual([
      expect.stringMatching(/^metrics\/tone\.yaml:6:11: .*only a fluency_<language> metric can be replaced/),
    ]);
  });
});
