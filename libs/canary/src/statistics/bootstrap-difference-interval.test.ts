import { seededRandom } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { bootstrapDifferenceInterval } from './bootstrap-difference-interval.js';

describe('bootstrapDifferenceInterval', () => {
  const first = Array.from({ length: 60 }, (_, index) => 0.8 + ((index % 7) - 3) * 0.03);
  const second = Array.from({ length: 40 }, (_, index) => 0.6 + ((index % 7) - 3) * 0.03);

  it('brackets the observed difference of the means, second minus first', () => {
    const interval = bootstrapDifferenceInterval(first, second, seededRandom(1), { resamples: 2_000 })!;
    expect(interval.low).toBeLessThan(-0.2 + 0.001);
    expect(interval.high).toBeGreaterThan(-0.2 - 0.03);
    expect(interval.high).toBeLessThan(0);
    expect(interval).toMatchObject({ level: 0.95, resamples: 2_000 });
  });

  it('is the same for the same seed, and null for an empty group', () => {
    expect(bootstrapDifferenceInterval(first, second, seededRandom(9), { resamples: 500 })).toEqual(bootstrapDifferenceInterval(first, second, seededRandom(9), { resamples: 500 }));
    expect(bootstrapDifferenceInterval([], second, seededRandom(1))).toBeNull();
  });

  it('is zero-width at the difference when neither group varies', () => {
    expect(bootstrapDifferenceInterval([1, 1, 1], [0.5, 0.5], seededRandom(1), { resamples: 100 })).toMatchObject({ low: -0.5, high: -0.5 });
  });
});
