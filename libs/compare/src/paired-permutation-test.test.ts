import { seededRandom } from '@parley/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairedPermutationTest } from './paired-permutation-test.js';

describe('pairedPermutationTest', () => {
  it('is exact for small suites: 5 deltas of one sign give p = 2/32', () => {
    expect(pairedPermutationTest([-0.1, -0.2, -0.15, -0.1, -0.12], seededRandom(1))).toEqual({ p_value: 0.0625, method: 'exact', permutations: 32 });
  });

  it('gives p = 1 when every delta is 0 and for no deltas', () => {
    expect(pairedPermutationTest([0, 0, 0], seededRandom(1)).p_value).toBe(1);
    expect(pairedPermutationTest([], seededRandom(1)).p_value).toBe(1);
  });

  it('finds balanced noise insignificant', () => {
    expect(pairedPermutationTest([0.1, -0.1, 0.05, -0.05, 0.02, -0.03], seededRandom(1)).p_value).toBeGreaterThan(0.5);
  });

  it('samples for large suites, reproducibly with a seed, and never says 0', () => {
    const deltas = Array.from({ length: 40 }, (_, index) => -0.05 + (index % 5) * 0.001);
    const first = pairedPermutationTest(deltas, seededRandom(7), 2000);
    expect(first.method).toBe('sampled');
    expect(first.p_value).toBeGreaterThan(0);
    expect(first.p_value).toBeLessThan(0.001);
    expect(pairedPermutationTest(deltas, seededRandom(7), 2000)).toEqual(first);
  });

  it('is symmetric: flipping every sign gives the same p-value', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 10 }), (deltas) => {
        const p = pairedPermutationTest(deltas, seededRandom(1)).p_value;
        expect(pairedPermutationTest(deltas.map((delta) => -delta), seededRandom(1)).p_value).toBeCloseTo(p, 12);
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
      }),
    );
  });
});
