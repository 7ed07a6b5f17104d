import type { Random } from '@parley/core';
import { quantileSorted } from 'simple-statistics';

export interface DifferenceInterval {
  low: number;
  high: number;
  /** e.g. 0.95 */
  level: number;
  resamples: number;
}

/**
 * Percentile bootstrap interval of mean(second) − mean(first) for two independent samples: each
 * round resamples both groups with replacement (from a seeded random source, so the same data and
 * seed always give the same interval) and takes the difference of the means; the sorted
 * differences are cut at (1 − level)/2 and (1 + level)/2. Null when either group is empty.
 *
 * @example bootstrapDifferenceInterval([0.8, 0.9], [0.5, 0.6], seededRandom(1)) // high < 0: the second is lower
 */
export function bootstrapDifferenceInterval(
  first: readonly number[],
  second: readonly number[],
  random: Random,
  options: { resamples?: number; level?: number } = {},
): DifferenceInterval | null {
  const resamples = options.resamples ?? 10_000;
  const level = options.level ?? 0.95;
  if (first.length === 0 || second.length === 0) return null;
  const differences = new Array<number>(resamples);
  for (let round = 0; round < resamples; round += 1) {
    differences[round] = resampledMean(second, random) - resampledMean(first, random);
  }
  differences.sort((left, right) => left - right);
  return { low: quantileSorted(differences, (1 - level) / 2), high: quantileSorted(differences, (1 + level) / 2), level, resamples };
}

function resampledMean(values: readonly number[], random: Random): number {
  let sum = 0;
  for (let index = 0; index < values.length; index += 1) sum += values[Math.floor(random.next() * values.length)]!;
  return sum / values.length;
}

