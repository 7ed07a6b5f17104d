import type { MetricResult } from '@parley/core';
import { BaselineSchema } from '@parley/config';
import { describe, expect, it } from 'vitest';
import { buildBaseline, renderBaselineJson } from './build-baseline.js';

const RUN = { suite: 'demo', parleyVersion: '0.1.0', createdAt: '2026-01-01T00:00:00.000Z', configFingerprint: `sha256:${'c'.repeat(64)}` };

function metric(name: string, score: number | null, extra: Partial<MetricResult> = {}): MetricResult {
  return { metric: name, version: '1.0.0', score, threshold: score === null ? null : 0.8, passed: true, reason: 'ok', ...extra };
}

describe('buildBaseline', () => {
  const results = [
    { scenario_id: 'zeta', metrics: [metric('tool_correctness', 0.5), metric('content_signals', null)] },
    {
      scenario_id: 'alpha',
      metrics: [
        metric('tool_correctness', 1),
        metric('tool_correctness', 0.25),
        metric('conversation_judge', null, { error: true, passed: false }),
        metric('tool_correctness', 0.9, { details: { attempts: 3, attempt_scores: [1, 0.8, 0.9] } }),
      ],
    },
  ];

  it('has one entry per scored metric, sorted by scenario and metric key, and validates against the schema', () => {
    const baseline = buildBaseline(RUN, results);
    expect(baseline.entries.map((entry) => [entry.test_id, entry.metric, entry.score])).toEqual([
      ['alpha', 'tool_correctness', 1],
      ['alpha', 'tool_correctness#2', 0.25],
      ['alpha', 'tool_correctness#3', 0.9],
      ['zeta', 'tool_correctness', 0.5],
    ]);
    expect(BaselineSchema.safeParse(baseline).success).toBe(true);
    expect(baseline).toMatchObject({ schema_version: 1, suite: 'demo', parley_version: '0.1.0', config_fingerprint: RUN.configFingerprint });
  });

  it('stores the mean of repeats with its attempts', () => {
    const entry = buildBaseline(RUN, results).entries.find((candidate) => candidate.metric === 'tool_correctness#3');
    expect(entry?.meta).toEqual({ metric_version: '1.0.0', attempts: 3, attempt_scores: [1, 0.8, 0.9] });
  });

  it('renders the same text for the same results in another order', () => {
    expect(renderBaselineJson(buildBaseline(RUN, [...results].reverse()))).toBe(renderBaselineJson(buildBaseline(RUN, results)));
    expect(renderBaselineJson(buildBaseline(RUN, results))).toMatch(/^\{\n {2}"schema_version": 1,\n {2}"suite": "demo",[\s\S]*\n\}\n$/);
  });
});
