import { describe, expect, it } from 'vitest';
import { seededRandom } from '@parley/core';
import { quantileSorted } from 'simple-statistics';
import { analyticKappaInterval } from './analytic-kappa-interval.js';
import { bootstrapKappaIntervals, bootstrapKappaTables } from './bootstrap-kappa-interval.js';
import { cohenKappa } from './cohen-kappa.js';
import { confusionMatrix } from './confusion-matrix.js';
import type { RatingPair } from './rating-labels.js';

/** 200 items, one pair each, mostly agreeing: a judge within a point of people. */
function agreeingItems(count: number, seed: number): RatingPair[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const human = 1 + Math.floor(random.next() * 5);
    const step = random.next() < 0.7 ? 0 : random.next() < 0.5 ? -1 : 1;
    const judge = Math.min(5, Math.max(1, human + step));
    return [[judge, human] as const];
  });
}

describe('bootstrapKappaIntervals', () => {
  it('is reproducible from its seed and changes with it', () => {
    const items = agreeingItems(200, 7);
    const once = bootstrapKappaIntervals(items, ['quadratic'], { seed: 11 });
    const again = bootstrapKappaIntervals(items, ['quadratic'], { seed: 11 });
    const other = bootstrapKappaIntervals(items, ['quadratic'], { seed: 12 });
    expect(again).toEqual(once);
    expect(other.quadratic.low).not.toBe(once.quadratic.low);
  });

  it('brackets the estimate and lies near the analytic interval on a large sample', () => {
    const items = agreeingItems(400, 3);
    const pairs = items.flat();
    const matrix = confusionMatrix(pairs);
    const result = bootstrapKappaIntervals(items, ['unweighted', 'linear', 'quadratic'], { seed: 1, resamples: 2000 });
    for (const weighting of ['unweighted', 'linear', 'quadratic'] as const) {
      const kappa = cohenKappa(matrix, weighting)!;
      const analytic = analyticKappaInterval(matrix, weighting)!;
      const interval = result[weighting];
      expect(interval.undefined_resamples).toBe(0);
      expect(interval.low!).toBeLessThan(kappa);
      expect(interval.high!).toBeGreaterThan(kappa);
      expect(Math.abs(interval.low! - analytic.low)).toBeLessThan(0.02);
      expect(Math.abs(interval.high! - analytic.high)).toBeLessThan(0.02);
    }
  });

  it('counts resamples whose kappa is undefined and leaves them out', () => {
    // Two items at opposite ends: a resample that draws the same item twice has one category only.
    const items: RatingPair[][] = [[[1, 1]], [[5, 5]]];
    const result = bootstrapKappaIntervals(items, ['quadratic'], { seed: 5, resamples: 1000 });
    const { undefined_resamples: undefinedCount, low, high } = result.quadratic;
    expect(undefinedCount).toBeGreaterThan(350);
    expect(undefinedCount).toBeLessThan(650);
    // Every defined resample has both items and perfect agreement.
    expect([low, high]).toEqual([1, 1]);
  });

  it('reports an interval of nothing when no resample is defined', () => {
    const result = bootstrapKappaIntervals([[[3, 3]], [[3, 3]]], ['unweighted'], { seed: 1, resamples: 50 });
    expect(result.unweighted).toEqual({ low: undefined, high: undefined, level: 0.95, resamples: 50, undefined_resamples: 50, seed: 1 });
    const empty = bootstrapKappaIntervals([], ['unweighted'], { seed: 1, resamples: 10 });
    expect(empty.unweighted.undefined_resamples).toBe(10);
  });

  it('resamples items, keeping the pairs of an item together', () => {
    // Each item has a perfectly agreeing pair and a perfectly opposed one: any resample has both.
    const items: RatingPair[][] = [
      [[1, 1], [1, 5]],
      [[5, 5], [5, 1]],
    ];
    const result = bootstrapKappaIntervals(items, ['unweighted'], { seed: 2, resamples: 200 });
    expect(result.unweighted.undefined_resamples).toBe(0);
  });

  it('resamples several tables from the same draws, and sums tables into pooled ones', () => {
    const items = agreeingItems(150, 9);
    const alone = bootstrapKappaIntervals(items, ['quadratic'], { seed: 4, resamples: 300 });
    const [first, second, pooled] = bootstrapKappaTables([items, items], ['quadratic'], { seed: 4, resamples: 300 }, [[0, 1]]);
    // The same items are drawn for every table, so a table's interval does not depend on the others.
    expect(first).toEqual(alone);
    expect(second).toEqual(alone);
    // A table summed with itself has the same kappa in every resample (doubling counts changes nothing).
    expect(pooled!.quadratic.low).toBeCloseTo(alone.quadratic.low!, 12);
    expect(pooled!.quadratic.high).toBeCloseTo(alone.quadratic.high!, 12);
  });

  it('is the percentile interval of the kappas of resamples drawn item by item', () => {
    // Items with none, one and several pairs; the straightforward bootstrap, draw by draw, from the same seed.
    const random = seededRandom(3);
    const items: RatingPair[][] = Array.from({ length: 60 }, (_, index) =>
      Array.from({ length: index % 4 }, () => [1 + Math.floor(random.next() * 5), 1 + Math.floor(random.next() * 5)] as const),
    );
    const resamples = 200;
    const draws = seededRandom(5);
    const kappas = { unweighted: [] as number[], quadratic: [] as number[] };
    for (let round = 0; round < resamples; round += 1) {
      const drawn: RatingPair[] = [];
      for (let draw = 0; draw < items.length; draw += 1) drawn.push(...items[Math.floor(draws.next() * items.length)]!);
      for (const weighting of ['unweighted', 'quadratic'] as const) {
        const kappa = cohenKappa(confusionMatrix(drawn), weighting);
        if (kappa !== undefined) kappas[weighting].push(kappa);
      }
    }
    const result = bootstrapKappaIntervals(items, ['unweighted', 'quadratic'], { seed: 5, resamples });
    for (const weighting of ['unweighted', 'quadratic'] as const) {
      const sorted = kappas[weighting].sort((left, right) => left - right);
      expect(result[weighting]).toEqual({ low: quantileSorted(sorted, 0.025), high: quantileSorted(sorted, 0.975), level: 0.95, resamples, undefined_resamples: 0, seed: 5 });
    }
  });
});
