import type { MetricResult } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { gateAgainstBaseline } from './baseline-gate.js';
import { indexBaseline } from './baseline-index.js';
import { baselineMetricRows, metricRowsInTriageOrder } from './baseline-metric-rows.js';

const judged: MetricResult = {
  metric: 'conversation_judge',
  version: '1.0.0',
  score: 0.85,
  threshold: 0.7,
  passed: true,
  reason: 'warm and correct',
  details: { message_scores: [{ message_index: 1, score: 85, reason: 'fine' }] },
};
const signals: MetricResult = { metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: false, reason: 'required "BK-1042" not found' };
const tools: MetricResult = { metric: 'tool_correctness', version: '1.0.0', score: 0.9, threshold: 0.8, passed: true, reason: 'tool_correctness 0.9 ≥ 0.8' };

function gated(metrics: MetricResult[], entries: Array<{ metric: string; score: number }>, strict = false): MetricResult[] {
  return gateAgainstBaseline({
    scenarioId: 's1',
    metrics,
    overrides: [],
    suiteDefault: { max_drop: 0.05, min_floor: 0.5 },
    baseline: indexBaseline({ entries: entries.map((entry) => ({ test_id: 's1', ...entry })) }),
    strict,
    createCommand: 'parley run . --export-baseline base.json',
  });
}

describe('baselineMetricRows', () => {
  it('reads score, baseline, delta, threshold, drop and verdict of a regressed metric', () => {
    const [row] = baselineMetricRows(gated([judged], [{ metric: 'conversation_judge', score: 0.92 }]));
    expect(row).toMatchObject({
      metric: 'conversation_judge',
      score: 0.85,
      baseline: 0.92,
      threshold: 0.7,
      max_drop: 0.05,
      min_floor: 0.5,
      regression: true,
      baseline_missing: false,
      verdict: 'fail',
    });
    expect(row!.delta).toBeCloseTo(-0.07, 10);
    expect(row!.reason).toContain('regressed against the baseline: baseline 0.92, current 0.85');
  });

  it('keeps pass/fail metrics as they are, in the order of the expectations', () => {
    const rows = baselineMetricRows(gated([signals, tools], [{ metric: 'tool_correctness', score: 0.88 }]));
    expect(rows.map((row) => row.metric)).toEqual(['content_signals', 'tool_correctness']);
    expect(rows[0]).toMatchObject({ score: null, baseline: null, delta: null, max_drop: null, verdict: 'fail', reason: 'required "BK-1042" not found' });
    expect(rows[1]).toMatchObject({ score: 0.9, baseline: 0.88, verdict: 'pass', regression: false });
    expect(rows[1]!.delta).toBeCloseTo(0.02, 10);
  });

  it('marks a missing baseline entry: a warning, or a failure under --strict', () => {
    const [warned] = baselineMetricRows(gated([tools], []));
    expect(warned).toMatchObject({ baseline: null, delta: null, baseline_missing: true, verdict: 'warn' });
    expect(warned!.reason).toContain('create it with: parley run . --export-baseline base.json');
    const [strict] = baselineMetricRows(gated([tools], [], true));
    expect(strict).toMatchObject({ baseline_missing: true, verdict: 'fail' });
  });

  it('says error for a metric that could not be evaluated, and works without any baseline', () => {
    const rows = baselineMetricRows([{ ...judged, score: null, passed: false, error: true, reason: 'judge output unusable' }, tools]);
    expect(rows[0]).toMatchObject({ verdict: 'error', baseline: null, delta: null });
    expect(rows[1]).toMatchObject({ verdict: 'pass', baseline: null, delta: null, max_drop: null, baseline_missing: false });
  });

  it('computes the delta when only the baseline score was kept', () => {
    const [row] = baselineMetricRows([{ ...tools, details: { baseline_score: 0.8 } }]);
    expect(row!.delta).toBeCloseTo(0.1, 10);
  });
});

describe('metricRowsInTriageOrder', () => {
  it('puts errors, then failures, then warnings before passes, each in expectation order', () => {
    const warned = { ...tools, metric: 'warned', details: { warn: true } };
    const broken = { ...judged, metric: 'broken', passed: false, error: true };
    const rows = baselineMetricRows([tools, signals, warned, { ...signals, metric: 'second_failure' }, broken, judged]);
    expect(rows.map((row) => row.position)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(metricRowsInTriageOrder(rows).map((row) => `${row.position}:${row.metric}:${row.verdict}`)).toEqual([
      '5:broken:error',
      '2:content_signals:fail',
      '4:second_failure:fail',
      '3:warned:warn',
      '1:tool_correctness:pass',
      '6:conversation_judge:pass',
    ]);
    expect(rows[0]!.metric).toBe('tool_correctness');
  });
});
