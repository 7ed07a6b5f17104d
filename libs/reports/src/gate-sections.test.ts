import type { MetricResult } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { renderJunit } from './junit.js';
import { selectionSentence } from './gate-sections.js';
import { renderSummaryMarkdown } from './summary-markdown.js';
import { SECRET_PHRASE, runInfo, sampleResults } from './test-support/sample-run.js';

const baselineSource = {
  file: 'baseline.json',
  suite: 'ratiba_booking',
  parley_version: '0.1.0',
  created_at: '2025-12-01T00:00:00.000Z',
  config_fingerprint: 'sha256:feedface',
  fingerprint_matches: false,
};
const fingerprintWarning = { kind: 'baseline_fingerprint_mismatch', message: 'baseline.json was made from another configuration', fails_under_strict: true };

function tool(score: number, details: Record<string, unknown>, passed = true): MetricResult {
  return { metric: 'tool_correctness', version: '1.0.0', score, threshold: 0.8, passed, reason: 'r', details };
}

function gatedResults() {
  const [first, second, third, ...rest] = sampleResults().filter((result) => result.status === 'pass' || result.status === 'skipped' || result.metadata_only);
  void rest;
  return [
    { ...first!, metrics: [tool(0.85, { baseline_score: 0.92, baseline_delta: -0.07, max_drop: 0.05, regression: true, below_floor: false }, false)], status: 'fail' as const },
    { ...second!, metrics: [tool(0.9, { baseline_missing: true, warn: true, below_floor: false })], status: 'warn' as const },
    { ...third!, metrics: [tool(0.82, { baseline_score: 0.8, baseline_delta: 0.02, max_drop: 0.05, regression: false, below_floor: false })] },
  ];
}

describe('the baseline, selection and warnings in the reports', () => {
  const report = buildReport(
    {
      ...runInfo,
      baseline: baselineSource,
      warnings: [fingerprintWarning],
      selection: { total: 8, selected: 3, shard: { index: 2, total: 3 }, changed_since: { ref: 'origin/main', changed_files: 4, affecting: ['prompts/booking.md'], smoke: false } },
      repeat: 3,
    },
    gatedResults(),
  );

  it('counts what the comparison found, metadata_only scenarios included', () => {
    expect(report.baseline).toEqual({ ...baselineSource, compared: 2, regressions: 1, below_floor: 0, missing: 1, improvements: 1 });
    expect(report.warnings).toEqual([fingerprintWarning]);
    expect(report.repeat).toBe(3);
  });

  it('summary.md lists regressions and missing entries with the numbers, and the warning', () => {
    const markdown = renderSummaryMarkdown(report);
    expect(markdown).toContain('### Baseline');
    expect(markdown).toContain('2 scores compared, 1 regression, 0 below the floor, 1 missing entry, 1 improved');
    expect(markdown).toMatch(/\| `\w+` \| tool_correctness \| 0\.92 \| 0\.85 \| -0\.07 \| 0\.05 \| — \| regression \|/);
    expect(markdown).toMatch(/\| `\w+` \| tool_correctness \| — \| 0\.9 \| — \| — \| — \| no entry \|/);
    expect(markdown).toContain('- **Warning** (fails under --strict): baseline.json was made from another configuration');
    expect(markdown).toContain('Gate matrix: 3 of 8 scenarios affected by changes since `origin/main` (`prompts/booking.md`). Shard 2/3: 3 of 8 scenarios.');
    expect(markdown).toContain('each scenario run 3 times');
    expect(markdown).not.toContain(SECRET_PHRASE);
  });

  it('junit.xml carries them as properties', () => {
    const xml = renderJunit(report);
    for (const property of [
      '<property name="baseline" value="baseline.json"/>',
      '<property name="baseline_fingerprint_matches" value="false"/>',
      '<property name="baseline_regressions" value="1"/>',
      '<property name="shard" value="2/3"/>',
      '<property name="changed_since" value="origin/main"/>',
      '<property name="repeat" value="3"/>',
      '<property name="warning_baseline_fingerprint_mismatch" value="baseline.json was made from another configuration"/>',
    ]) {
      expect(xml).toContain(property);
    }
  });

  it('a strict-failing warning fails the run under --strict only', () => {
    const passing = sampleResults().filter((result) => result.status === 'pass');
    expect(buildReport({ ...runInfo, warnings: [fingerprintWarning] }, passing)).toMatchObject({ exit_code: 0, status: 'warn' });
    expect(buildReport({ ...runInfo, strict: true, warnings: [fingerprintWarning] }, passing)).toMatchObject({ exit_code: 1, status: 'warn' });
  });

  it('says when a gate-matrix run is a smoke run', () => {
    const advisory = sampleResults().filter((result) => result.gate === 'advisory');
    const smoke = buildReport({ ...runInfo, selection: { total: 9, selected: 1, changed_since: { ref: 'HEAD~1', changed_files: 2, affecting: [], smoke: true } } }, advisory);
    const markdown = renderSummaryMarkdown(smoke);
    expect(markdown.split('\n')[0]).toBe('## Parley: PASS — smoke run, no blocking scenarios; 1 advisory scenario ran');
    expect(markdown).toContain('Smoke run: no change since `HEAD~1` affects any scenario (2 files changed), so only the 1 advisory scenario of 9 ran; they never fail the run.');
    expect(markdown).toContain('### Blocking scenarios\n\nNone.');
    expect(markdown).toContain('### Advisory scenarios (1)');
  });
});

describe('selectionSentence', () => {
  it('says when a smoke run had nothing to run', () => {
    const report = buildReport({ ...runInfo, selection: { total: 7, selected: 0, changed_since: { ref: 'HEAD', changed_files: 0, affecting: [], smoke: true } } }, []);
    expect(selectionSentence(report)).toBe('Smoke run: no change since `HEAD` affects any scenario (0 files changed), and the suite has no advisory scenarios, so nothing ran.');
    expect(renderSummaryMarkdown(report).split('\n')[0]).toBe('## Parley: SKIPPED — smoke run, no scenarios ran');
  });

  it('is null when every scenario ran', () => {
    expect(selectionSentence(buildReport(runInfo, []))).toBeNull();
  });
});

describe('attempts in report.json', () => {
  it('lists every attempt, withheld like its scenario', () => {
    const [plain, secret] = [sampleResults().find((result) => result.scenario_id === 'spa_happy')!, sampleResults().find((result) => result.scenario_id === 'gbv_disclosure')!];
    const report = buildReport(runInfo, [
      { ...plain, status: 'flaky', attempts: [plain, { ...plain, status: 'fail', reason: 'attempt 2 reason' }] },
      { ...secret, attempts: [secret, secret] },
    ]);
    const [gbv, spa] = report.results;
    expect(spa!.attempts!.map((attempt) => [attempt.attempt, attempt.status, attempt.reason])).toEqual([
      [1, 'pass', '1 expectation passed'],
      [2, 'fail', 'attempt 2 reason'],
    ]);
    expect(spa!.attempts![0]!.transcript).toBeDefined();
    expect(gbv!.attempts).toHaveLength(2);
    expect(gbv!.attempts![0]!.transcript).toBeUndefined();
    expect(JSON.stringify(report)).not.toContain(SECRET_PHRASE);
  });
});
