import type { RatingPair } from './rating-labels.js';

/**
 * The share of pairs where both raters gave the same rating; `undefined` for no pairs.
 *
 * @example
 * exactAgreement([[4, 4], [3, 4]]) // 0.5
 */
export function exactAgreement(pairs: readonly RatingPair[]): number | undefined {
  if (pairs.length === 0) return undefined;
  return pairs.filter(([first, second]) => first === second).length / pairs.length;
}
