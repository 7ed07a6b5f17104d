import { describe, expect, it } from 'vitest';
import { evaluateExpectation } from './evaluate-expectation.js';
import { latencyMetric, nearestRank } from './latency.js';
import { conversation } from './test-support/transcript-builder.js';

function chatWithLatencies(latencies: Array<number | undefined>) {
  const builder = conversation();
  for (const latency of latencies) builder.user('q').assistant('a', latency === undefined ? {} : { latency_ms: latency });
  return builder.input();
}

describe('nearestRank', () => {
  it.each<[number[], number]>([
    [[100], 100],
    [[100, 200, 300], 300],
    [Array.from({ length: 20 }, (_, index) => (index + 1) * 10), 190],
    [Array.from({ length: 100 }, (_, index) => index + 1), 95],
  ])('p95 of %j is %d', (values, p95) => {
    expect(nearestRank(values, 0.95)).toBe(p95);
  });
});

describe('latency', () => {
  const twenty = Array.from({ length: 20 }, (_, index) => (index + 1) * 100); // p95 = 1900, max = 2000

  it.each<[string, Record<string, unknown>, boolean, string]>([
    ['p95 within', { p95_ms: 1900 }, true, 'p95 1900 ms ≤ 1900 ms over 20 assistant messages'],
    ['p95 over', { p95_ms: 1500 }, false, 'p95 1900 ms > 1500 ms over 20 assistant messages'],
    ['max over, p95 within', { p95_ms: 1900, max_ms: 1950 }, false, 'max 2000 ms > 1950 ms over 20 assistant messages'],
    ['both within', { p95_ms: 2000, max_ms: 2000 }, true, 'p95 1900 ms ≤ 2000 ms, max 2000 ms ≤ 2000 ms over 20 assistant messages'],
  ])('%s', (_, params, passed, reason) => {
    const result = evaluateExpectation(latencyMetric, chatWithLatencies(twenty), { metric: 'latency', ...params });
    expect(result).toMatchObject({ passed, reason, score: null, threshold: null });
    expect(result.details).toEqual({ p95: 1900, max: 2000, count: 20, slowest: { message_index: 39, turn: 20 } });
  });

  it('ignores messages without a latency', () => {
    const result = evaluateExpectation(latencyMetric, chatWithLatencies([undefined, 300, undefined]), { metric: 'latency', max_ms: 200 });
    expect(result).toMatchObject({ passed: false, reason: 'max 300 ms > 200 ms over 1 assistant message' });
  });

  it('passes, and says so, when no message reported a latency', () => {
    const result = evaluateExpectation(latencyMetric, chatWithLatencies([undefined]), { metric: 'latency', p95_ms: 1 });
    expect(result).toMatchObject({ passed: true, reason: 'no assistant message reported a latency, so there is nothing to check' });
  });

  it.each([[{}], [{ p95_ms: -1 }], [{ p99_ms: 100 }]])('rejects %j', (params) => {
    expect(evaluateExpectation(latencyMetric, chatWithLatencies([1]), { metric: 'latency', ...params }).error).toBe(true);
  });
});
