import { mean } from 'simple-statistics';
import type { RatingPair } from './rating-labels.js';

/**
 * The bias: mean of first − second over the pairs, in rating points. For `[judge, human]` pairs a
 * positive value is a judge that rates more generously than people. `undefined` for no pairs.
 *
 * @example
 * meanSignedDifference([[5, 4], [4, 4]]) // 0.5
 */
export function meanSignedDifference(pairs: readonly RatingPair[]): number | undefined {
  if (pairs.length === 0) return undefined;
  return mean(pairs.map(([first, second]) => first - second));
}
