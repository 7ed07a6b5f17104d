import type { MetricResult, ScenarioResult, Status } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { combineAttemptResults } from './combine-attempt-results.js';

function attempt(status: Status, metrics: MetricResult[], extra: Partial<ScenarioResult> = {}): ScenarioResult {
  return {
    scenario_id: 'greeting',
    agent: 'booking',
    gate: 'blocking',
    tags: [],
    metadata_only: false,
    status,
    reason: `${status} reason`,
    metrics,
    transcript: { ended_by: 'script', turns: [{ role: 'assistant', content: `${status} transcript`, turn: 1 }] },
    cost: { input_tokens: 10, output_tokens: 5, usd: 0.01, calls: 1 },
    session: { conversation_id: `conv-${status}`, tenant: 't' },
    ...extra,
  };
}

const signals = (passed: boolean): MetricResult => ({ metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed, reason: passed ? 'found' : 'missing "Karibu"' });
const tools = (score: number, details?: Record<string, unknown>): MetricResult => ({
  metric: 'tool_correctness',
  version: '1.0.0',
  score,
  threshold: 0.8,
  passed: score >= 0.8,
  reason: `tool_correctness ${score}`,
  ...(details ? { details } : {}),
});

describe('combineAttemptResults', () => {
  it('is flaky when 2 of 3 attempts pass, quoting the failing attempt and keeping its transcript', () => {
    const combined = combineAttemptResults([
      attempt('pass', [signals(true), tools(1)]),
      attempt('fail', [signals(false), tools(0.5)], { reason: 'content_signals: missing "Karibu"' }),
      attempt('pass', [signals(true), tools(1)]),
    ]);
    expect(combined.status).toBe('flaky');
    expect(combined.reason).toBe('2 of 3 attempts passed; attempt 2 failed: content_signals: missing "Karibu"');
    expect(combined.transcript?.turns[0]?.content).toBe('fail transcript');
    expect(combined.cost).toEqual({ input_tokens: 30, output_tokens: 15, usd: 0.03, calls: 3 });
    expect(combined.session?.conversation_id).toBe('conv-pass');
  });

  it('averages scored metrics and keeps every attempt score', () => {
    const combined = combineAttemptResults([attempt('pass', [tools(1)]), attempt('fail', [tools(0.5)]), attempt('pass', [tools(0.9)])]);
    const [metric] = combined.metrics;
    expect(metric!.score).toBeCloseTo(0.8, 10);
    expect(metric!.passed).toBe(false);
    expect(metric!.details).toEqual({ attempts: 3, passed_attempts: 2, attempt_scores: [1, 0.5, 0.9] });
    expect(metric!.reason).toBe('mean 0.8 over 3 attempts (1, 0.5, 0.9), passed in 2 of 3; attempt 2: tool_correctness 0.5');
  });

  it('combines pass/fail metrics as a count', () => {
    const combined = combineAttemptResults([attempt('pass', [signals(true)]), attempt('pass', [signals(true)])]);
    expect(combined.status).toBe('pass');
    expect(combined.reason).toBe('2 of 2 attempts passed');
    expect(combined.metrics[0]).toMatchObject({ score: null, passed: true, reason: 'passed in 2 of 2 attempts' });
  });

  it('is fail when every attempt fails and error when one errors and none pass', () => {
    expect(combineAttemptResults([attempt('fail', [signals(false)]), attempt('fail', [signals(false)])]).status).toBe('fail');
    const errored = combineAttemptResults([
      attempt('fail', [signals(false)]),
      attempt('error', [], { error: { kind: 'replay_miss', message: 'recording miss' }, reason: 'recording miss' }),
    ]);
    expect(errored.status).toBe('error');
    expect(errored.error).toEqual({ kind: 'replay_miss', message: 'recording miss' });
    expect(errored.metrics).toHaveLength(1); // from the attempt that got as far as its metrics
  });

  it('carries the baseline comparison of the mean and the warnings of any attempt', () => {
    const combined = combineAttemptResults([
      attempt('warn', [tools(0.9, { baseline_missing: true, warn: true })]),
      attempt('pass', [tools(0.8, { baseline_score: 0.9, baseline_delta: -0.1, max_drop: 0.1, regression: false })]),
    ]);
    expect(combined.status).toBe('warn');
    expect(combined.reason).toBe('2 of 2 attempts passed; attempt 1 warned: warn reason');
    expect(combined.metrics[0]!.details).toMatchObject({ baseline_score: 0.9, max_drop: 0.1, baseline_missing: true, warn: true });
    expect(combined.metrics[0]!.details!['baseline_delta']).toBeCloseTo(-0.05, 10);
  });

  it('refuses an empty list', () => {
    expect(() => combineAttemptResults([])).toThrow(RangeError);
  });
});
