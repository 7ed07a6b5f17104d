import { cohenKappa } from './cohen-kappa.js';
import { disagreementWeights, type KappaWeighting } from './kappa-weights.js';

/** The 97.5% point of the standard normal distribution: two-sided 95% intervals. */
export const Z_95 = 1.959963984540054;

export interface AnalyticKappaInterval {
  kappa: number;
  /** Large-sample standard error (Fleiss, Cohen & Everitt 1969). */
  standard_error: number;
  /** kappa ± z · standard error, kept within [−1, 1] where kappa lives. */
  low: number;
  high: number;
}

/**
 * The large-sample 95% interval of (weighted) kappa, with the non-null variance of Fleiss, Cohen &
 * Everitt (1969), "Large sample standard errors of kappa and weighted kappa", Psychological
 * Bulletin 72(5), in agreement weights `w = 1 − disagreement`:
 *
 *   var κ = [Σᵢⱼ pᵢⱼ (wᵢⱼ − (w̄ᵢ. + w̄.ⱼ)(1 − κ))² − (κ − pₑ(1 − κ))²] / (n (1 − pₑ)²)
 *
 * with w̄ᵢ. = Σⱼ p.ⱼ wᵢⱼ and w̄.ⱼ = Σᵢ pᵢ. wᵢⱼ. This is what SAS PROC FREQ reports as ASE.
 * Pairs are assumed independent; when each item gives several pairs (two reviewers against one
 * judge) the bootstrap over items is the honest interval and this one is too narrow.
 *
 * `undefined` exactly when kappa is.
 */
export function analyticKappaInterval(
  matrix: readonly (readonly number[])[],
  weighting: KappaWeighting = 'unweighted',
  z: number = Z_95,
): AnalyticKappaInterval | undefined {
  const kappa = cohenKappa(matrix, weighting);
  if (kappa === undefined) return undefined;
  const size = matrix.length;
  const weights = disagreementWeights(size, weighting);
  const agreement = (row: number, column: number): number => 1 - weights[row * size + column]!;
  const total = matrix.reduce((sum, row) => sum + row.reduce((rowSum, count) => rowSum + count, 0), 0);
  const proportion = (row: number, column: number): number => matrix[row]![column]! / total;
  const rowShares = matrix.map((_, row) => matrix[row]!.reduce((sum, count) => sum + count, 0) / total);
  const columnShares = matrix.map((_, column) => matrix.reduce((sum, row) => sum + row[column]!, 0) / total);

  let expectedAgreement = 0;
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column < size; column += 1) expectedAgreement += agreement(row, column) * rowShares[row]! * columnShares[column]!;
  }
  const rowMeans = rowShares.map((_, row) => columnShares.reduce((sum, share, column) => sum + share * agreement(row, column), 0));
  const columnMeans = columnShares.map((_, column) => rowShares.reduce((sum, share, row) => sum + share * agreement(row, column), 0));

  let spread = 0;
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column < size; column += 1) {
      const share = proportion(row, column);
      if (share === 0) continue;
      spread += share * (agreement(row, column) - (rowMeans[row]! + columnMeans[column]!) * (1 - kappa)) ** 2;
    }
  }
  const variance = (spread - (kappa - expectedAgreement * (1 - kappa)) ** 2) / (total * (1 - expectedAgreement) ** 2);
  // Rounding can leave a tiny negative variance where the true one is 0 (perfect agreement).
  const standardError = Math.sqrt(Math.max(variance, 0));
  return {
    kappa,
    standard_error: standardError,
    low: Math.max(-1, kappa - z * standardError),
    high: Math.min(1, kappa + z * standardError),
  };
}
