import { describe, expect, it } from 'vitest';
import { evaluateExpectation } from './evaluate-expectation.js';
import { maxTurnsMetric } from './max-turns.js';
import { conversation } from './test-support/transcript-builder.js';

const threeTurns = conversation().user('a').assistant('1').user('b').assistant('2').user('c').assistant('3').input();

describe('max_turns', () => {
  it.each<[number, boolean, string]>([
    [3, true, '3 user turns ≤ max 3'],
    [8, true, '3 user turns ≤ max 8'],
    [2, false, '3 user turns > max 2'],
  ])('max %d', (max, passed, reason) => {
    const result = evaluateExpectation(maxTurnsMetric, threeTurns, { metric: 'max_turns', max });
    expect(result).toMatchObject({ passed, reason, score: null, threshold: null, details: { count: 3, max } });
  });

  it.each([[{}], [{ max: 0 }], [{ max: 2.5 }], [{ max: '3' }]])('rejects %j', (params) => {
    expect(evaluateExpectation(maxTurnsMetric, threeTurns, { metric: 'max_turns', ...params }).error).toBe(true);
  });
});
