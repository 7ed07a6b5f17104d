import { seededRandom } from '@parley/core';
import { quantileSorted } from 'simple-statistics';
import { labelPosition } from './confusion-matrix.js';
import { kappaFromCounts } from './kappa-from-counts.js';
import { disagreementWeights, type KappaWeighting } from './kappa-weights.js';
import { RATING_LABELS, type RatingPair } from './rating-labels.js';

export interface BootstrapKappaOptions {
  /** Seed of the resampling, so the same data give the same interval in every report. */
  seed: number;
  /** Default 1,000. */
  resamples?: number;
  /** Default 0.95. */
  level?: number;
  labels?: readonly number[];
}

export interface BootstrapKappaInterval {
  /** Undefined when no resample had a defined kappa. */
  low: number | undefined;
  high: number | undefined;
  level: number;
  resamples: number;
  /**
   * Resamples whose kappa was 0/0 (every drawn rating the same label). They are left out of the
   * percentiles, and counted here because many of them mean the interval stands on little.
   */
  undefined_resamples: number;
  seed: number;
}

/**
 * Percentile bootstrap intervals of kappa, resampling items (not pairs) with replacement: an item
 * rated by two reviewers gives two pairs against the judge, and those two stand or fall together.
 * One pass serves every requested weighting, so unweighted, linear and quadratic intervals come
 * from the same resamples.
 *
 * @param items each item's rating pairs (an item may have none: it is drawn and adds nothing).
 */
export function bootstrapKappaIntervals(
  items: ReadonlyArray<readonly RatingPair[]>,
  weightings: readonly KappaWeighting[],
  options: BootstrapKappaOptions,
): Record<KappaWeighting, BootstrapKappaInterval> {
  const labels = options.labels ?? RATING_LABELS;
  const resamples = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  const size = labels.length;

  // Each item as a run of cell numbers (row · k + column) in one flat array: the inner loop then
  // touches only typed arrays.
  const offsets = new Int32Array(items.length + 1);
  const cells = new Int32Array(items.reduce((sum, pairs) => sum + pairs.length, 0));
  let cursor = 0;
  items.forEach((pairs, index) => {
    offsets[index] = cursor;
    for (const [first, second] of pairs) cells[cursor++] = labelPosition(labels, first) * size + labelPosition(labels, second);
  });
  offsets[items.length] = cursor;

  const weightTables = weightings.map((weighting) => disagreementWeights(size, weighting));
  const estimates = weightings.map(() => [] as number[]);
  const random = seededRandom(options.seed);
  const counts = new Float64Array(size * size);
  const itemCount = items.length;
  for (let round = 0; round < resamples; round += 1) {
    counts.fill(0);
    for (let draw = 0; draw < itemCount; draw += 1) {
      const item = Math.floor(random.next() * itemCount);
      for (let cell = offsets[item]!, end = offsets[item + 1]!; cell < end; cell += 1) counts[cells[cell]!]! += 1;
    }
    weightTables.forEach((weights, index) => {
      const kappa = kappaFromCounts(counts, size, weights);
      if (kappa !== undefined) estimates[index]!.push(kappa);
    });
  }

  const result = {} as Record<KappaWeighting, BootstrapKappaInterval>;
  weightings.forEach((weighting, index) => {
    const sorted = estimates[index]!.sort((left, right) => left - right);
    const defined = sorted.length > 0;
    result[weighting] = {
      low: defined ? quantileSorted(sorted, (1 - level) / 2) : undefined,
      high: defined ? quantileSorted(sorted, (1 + level) / 2) : undefined,
      level,
      resamples,
      undefined_resamples: resamples - sorted.length,
      seed: options.seed,
    };
  });
  return result;
}
