import type { MetricResult, ScenarioResult } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { WITHHELD, withheldScenarioReason, withholdMetricContent } from './withhold-content.js';

const failed: MetricResult = {
  metric: 'conversation_judge',
  version: '2.1.0',
  score: 0.4,
  threshold: 0.7,
  passed: false,
  reason: 'the agent said "secret"',
  details: { message_scores: [{ message_index: 1, score: 40, reason: 'secret' }], mean: 40, cached: true, note: 'secret', infinite: Infinity },
};

function result(overrides: Partial<ScenarioResult>): ScenarioResult {
  return {
    scenario_id: 's',
    agent: 'a',
    gate: 'blocking',
    tags: [],
    metadata_only: true,
    status: 'pass',
    reason: 'secret',
    metrics: [],
    cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 },
    ...overrides,
  };
}

describe('withholdMetricContent', () => {
  it('keeps scores and verdicts, withholds the reason, keeps only finite numbers and booleans of details', () => {
    expect(withholdMetricContent(failed)).toEqual({
      metric: 'conversation_judge',
      version: '2.1.0',
      score: 0.4,
      threshold: 0.7,
      passed: false,
      reason: WITHHELD,
      details: { mean: 40, cached: true },
    });
  });

  it('drops details that had nothing safe and keeps the error flag', () => {
    const withheld = withholdMetricContent({ ...failed, details: { note: 'secret' }, error: true });
    expect(withheld).not.toHaveProperty('details');
    expect(withheld.error).toBe(true);
  });
});

describe('withheldScenarioReason', () => {
  it.each([
    ['a failing metric', result({ status: 'fail', metrics: [{ ...failed, passed: true }, failed] }), `conversation_judge: ${WITHHELD}`],
    ['an unevaluated metric', result({ status: 'error', metrics: [{ ...failed, error: true }] }), `conversation_judge: ${WITHHELD}`],
    ['an error kind', result({ status: 'error', error: { kind: 'recording_miss', message: 'secret' } }), `recording_miss: ${WITHHELD}`],
    ['a warning metric', result({ status: 'warn', metrics: [{ ...failed, passed: true, details: { warn: true } }] }), `conversation_judge: ${WITHHELD}`],
    ['a pass', result({ status: 'pass' }), WITHHELD],
    ['a skip', result({ status: 'skipped' }), WITHHELD],
  ])('names %s and nothing else', (_, scenario, expected) => {
    expect(withheldScenarioReason(scenario)).toBe(expected);
  });
});
