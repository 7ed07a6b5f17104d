import { RATING_LABELS, type RatingPair } from './rating-labels.js';

/**
 * Counts of rating pairs by label: `matrix[i][j]` is how often the first rater gave `labels[i]`
 * while the second gave `labels[j]`. Every label gets its row and column, also those nobody used.
 *
 * A rating outside the label list is a `RangeError`, never a dropped pair: the loaders reject such
 * ratings with their file location first, so reaching this is a bug, not bad input.
 *
 * @example
 * confusionMatrix([[1, 1], [2, 1]], [1, 2]) // [[1, 0], [1, 0]]
 */
export function confusionMatrix(pairs: Iterable<RatingPair>, labels: readonly number[] = RATING_LABELS): number[][] {
  const size = labels.length;
  const matrix = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  for (const [first, second] of pairs) {
    const row = labelPosition(labels, first);
    const column = labelPosition(labels, second);
    matrix[row]![column]! += 1;
  }
  return matrix;
}

/** Where a rating sits in the label list; a `RangeError` for a value that is not a label. */
export function labelPosition(labels: readonly number[], value: number): number {
  const position = labels.indexOf(value);
  if (position < 0) throw new RangeError(`rating ${String(value)} is not on the scale ${labels.join(', ')}`);
  return position;
}
