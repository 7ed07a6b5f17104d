import { seededRandom } from '@parley/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bootstrapMeanInterval } from './bootstrap-interval.js';

describe('bootstrapMeanInterval', () => {
  it('is the same for the same seed and contains the mean', () => {
    const values = [-0.1, -0.05, -0.2, 0.01, -0.08, -0.12];
    const interval = bootstrapMeanInterval(values, seededRandom(1), { resamples: 2000 })!;
    expect(bootstrapMeanInterval(values, seededRandom(1), { resamples: 2000 })).toEqual(interval);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(interval.low).toBeLessThan(mean);
    expect(interval.high).toBeGreaterThan(mean);
    expect(interval.high).toBeLessThan(0); // consistently negative deltas: the interval excludes 0
    expect(interval).toMatchObject({ level: 0.95, resamples: 2000 });
  });

  it('has no interval without values and a point for one value', () => {
    expect(bootstrapMeanInterval([], seededRandom(1))).toBeNull();
    expect(bootstrapMeanInterval([0.3], seededRandom(1), { resamples: 50 })).toMatchObject({ low: 0.3, high: 0.3 });
  });

  it('always lies within the range of the values', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }), fc.integer(), (values, seed) => {
        const interval = bootstrapMeanInterval(values, seededRandom(seed), { resamples: 200 })!;
        expect(interval.low).toBeGreaterThanOrEqual(Math.min(...values) - 1e-12);
        expect(interval.high).toBeLessThanOrEqual(Math.max(...values) + 1e-12);
        expect(interval.low).toBeLessThanOrEqual(interval.high);
      }),
      { numRuns: 50 },
    );
  });
});
