/** How far apart two different labels count: not at all (nominal), by distance, or by squared distance. */
export type KappaWeighting = 'unweighted' | 'linear' | 'quadratic';

export const KAPPA_WEIGHTINGS: readonly KappaWeighting[] = ['unweighted', 'linear', 'quadratic'];

/**
 * Disagreement weights by position in the full label list, scaled to [0, 1]: 0 on the diagonal,
 * 1 for the two ends of the scale (`|i − j| / (k − 1)` linear, its square quadratic; every
 * off-diagonal cell is 1 unweighted). Laid out row by row as a flat `k × k` array, the shape the
 * kappa loops read fastest.
 *
 * Scaling the weights does not change kappa, so these agree with scikit-learn's unscaled
 * `|i − j|` and `(i − j)²`.
 */
export function disagreementWeights(size: number, weighting: KappaWeighting): Float64Array {
  const weights = new Float64Array(size * size);
  const span = Math.max(size - 1, 1);
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column < size; column += 1) {
      const distance = Math.abs(row - column);
      weights[row * size + column] =
        weighting === 'unweighted' ? (distance === 0 ? 0 : 1) : weighting === 'linear' ? distance / span : (distance / span) ** 2;
    }
  }
  return weights;
}
