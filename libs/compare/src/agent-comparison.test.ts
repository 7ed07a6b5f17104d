import { describe, expect, it } from 'vitest';
import type { MetricResult, Status } from '@parley/core';
import { compareAgents, type ComparedResult } from './agent-comparison.js';

function metric(name: string, score: number | null): MetricResult {
  return { metric: name, version: '1', score, threshold: 0.7, passed: score === null || score >= 0.7, reason: '' };
}

function result(id: string, agent: string, metrics: MetricResult[], options: { status?: Status; usd?: number; latencies?: number[] } = {}): ComparedResult {
  return {
    scenario_id: id,
    agent,
    status: options.status ?? 'pass',
    gate: 'blocking',
    metrics,
    cost: { input_tokens: 10, output_tokens: 5, usd: options.usd ?? 0.01, calls: 1 },
    transcript: {
      ended_by: 'script',
      turns: (options.latencies ?? []).map((latency) => ({ role: 'assistant' as const, content: 'ok', turn: 1, latency_ms: latency })),
    },
  };
}

const SCENARIOS = ['s1', 's2', 's3', 's4', 's5', 's6'];

describe('compareAgents', () => {
  it('names the agent that scores higher on every scenario the winner of that metric, and no winner where the scores are equal', () => {
    const results = SCENARIOS.flatMap((id, index) => [
      result(id, 'v1', [metric('slots', 1), metric('fluency', 0.8), metric('content_signals', null)]),
      result(`${id}@v2`, 'v2', [metric('slots', 0.5 - index * 0.01), metric('fluency', 0.8), metric('content_signals', null)]),
    ]);
    const comparison = compareAgents(results, ['v1', 'v2']);

    const slots = comparison.tests.find((test) => test.metric === 'slots')!;
    expect(slots).toMatchObject({ agent: 'v2', against: 'v1', pairs: 6, agent_mean: expect.closeTo(0.475, 6), against_mean: 1, winner: 'v1' });
    expect(slots.p_value).toBeCloseTo(2 / 64, 10); // exact sign-flip test: only the all-negative and all-positive assignments are as extreme
    expect(comparison.tests.find((test) => test.metric === 'fluency')).toMatchObject({ mean_delta: 0, p_value: 1, winner: null });
    // Pass/fail metrics have no score to compare.
    expect(comparison.tests.map((test) => test.metric)).toEqual(['fluency', 'slots']);
    // Rows are per scenario (the case id's scenario) and metric key, each agent's score side by side.
    expect(comparison.scores[0]).toEqual({ scenario_id: 's1', metric: 'fluency', scores: { v1: 0.8, v2: 0.8 } });
    expect(comparison.scores.find((row) => row.scenario_id === 's2' && row.metric === 'slots')?.scores).toEqual({ v1: 1, v2: 0.49 });
  });

  it('calls no winner when the difference is on too few scenarios to tell from noise', () => {
    const results = SCENARIOS.slice(0, 4).flatMap((id) => [result(id, 'v1', [metric('slots', 1)]), result(`${id}@v2`, 'v2', [metric('slots', 0.5)])]);
    const slots = compareAgents(results, ['v1', 'v2']).tests[0]!;
    expect(slots.p_value).toBeCloseTo(2 / 16, 10);
    expect(slots.winner).toBeNull();
  });

  it('totals each agent’s cases, cost and answer latency', () => {
    const results = [
      result('s1', 'v1', [metric('slots', 1)], { usd: 0.02, latencies: [100, 300] }),
      result('s2', 'v1', [metric('slots', 1)], { usd: 0.01, status: 'fail', latencies: [200] }),
      result('s1@v2', 'v2', [metric('slots', 1)], { usd: 0.05 }),
    ];
    const [first, second] = compareAgents(results, ['v1', 'v2']).per_agent;
    expect(first).toMatchObject({ agent: 'v1', cases: 2, mean_latency_ms: 200, cost: { usd: expect.closeTo(0.03, 10), calls: 2 } });
    expect(first!.counts).toMatchObject({ pass: 1, fail: 1 });
    expect(second).toMatchObject({ agent: 'v2', cases: 1, mean_latency_ms: null, p95_latency_ms: null });
  });

  it('tests every further agent against the first one named', () => {
    const results = SCENARIOS.flatMap((id) => [
      result(id, 'a', [metric('slots', 0.6)]),
      result(`${id}@b`, 'b', [metric('slots', 0.9)]),
      result(`${id}@c`, 'c', [metric('slots', 0.6)]),
    ]);
    const tests = compareAgents(results, ['a', 'b', 'c']).tests;
    expect(tests.map((test) => [test.agent, test.against, test.winner])).toEqual([
      ['b', 'a', 'b'],
      ['c', 'a', null],
    ]);
  });
});
