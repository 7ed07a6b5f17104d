import type { Random } from '@parley/core';
import { mean, quantileSorted } from 'simple-statistics';

export interface BootstrapInterval {
  low: number;
  high: number;
  /** e.g. 0.95 */
  level: number;
  resamples: number;
}

/**
 * Percentile bootstrap interval of a mean: resample the values with replacement `resamples` times
 * (from a seeded random source, so the same runs give the same interval in every report), take
 * each resample's mean, and cut the sorted means at (1 − level)/2 and (1 + level)/2.
 *
 * An empty list has no interval (null); one value gives a zero-width interval at it.
 */
export function bootstrapMeanInterval(values: readonly number[], random: Random, options: { resamples?: number; level?: number } = {}): BootstrapInterval | null {
  const resamples = options.resamples ?? 10_000;
  const level = options.level ?? 0.95;
  if (values.length === 0) return null;
  const means = new Array<number>(resamples);
  const resample = new Array<number>(values.length);
  for (let round = 0; round < resamples; round += 1) {
    for (let index = 0; index < values.length; index += 1) resample[index] = values[Math.floor(random.next() * values.length)]!;
    means[round] = mean(resample);
  }
  means.sort((left, right) => left - right);
  return { low: quantileSorted(means, (1 - level) / 2), high: quantileSorted(means, (1 + level) / 2), level, resamples };
}
