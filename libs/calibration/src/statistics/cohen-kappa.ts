import { kappaFromCounts } from './kappa-from-counts.js';
import { disagreementWeights, type KappaWeighting } from './kappa-weights.js';

/**
 * Cohen's kappa of a confusion matrix (rows: first rater, columns: second), unweighted or with
 * linear or quadratic weights by position in the full label list.
 *
 * `undefined` for 0/0: no pairs, or every rating of both raters is the same label. Never `NaN`,
 * and never a made-up 0 or 1: a month where everyone rated everything 4 says nothing about
 * whether the judge agrees with people.
 *
 * @example
 * cohenKappa([[20, 5], [10, 15]]) // 0.4 (Wikipedia's worked example)
 * cohenKappa([[3, 0], [0, 0]])     // undefined: one category only
 */
export function cohenKappa(matrix: readonly (readonly number[])[], weighting: KappaWeighting = 'unweighted'): number | undefined {
  const size = matrix.length;
  const counts = new Float64Array(size * size);
  matrix.forEach((row, rowIndex) => {
    if (row.length !== size) throw new RangeError(`a confusion matrix is square: row ${rowIndex} has ${row.length} cells, not ${size}`);
    row.forEach((count, column) => {
      counts[rowIndex * size + column] = count;
    });
  });
  return kappaFromCounts(counts, size, disagreementWeights(size, weighting));
}
