import { describe, expect, it } from 'vitest';
import { analyticKappaInterval, Z_95 } from './analytic-kappa-interval.js';

/** SAS PROC FREQ's agreement example, as statsmodels tests it (statsmodels/stats/tests/test_inter_rater.py). */
const SAS_TABLE = [
  [0, 4, 1],
  [0, 8, 0],
  [0, 1, 5],
];

/** The same counts on the 1–5 scale: categories 1–3 used, 4 and 5 not. */
function onFullScale(matrix: number[][]): number[][] {
  const full = Array.from({ length: 5 }, () => new Array<number>(5).fill(0));
  matrix.forEach((row, i) => row.forEach((count, j) => (full[i]![j] = count)));
  return full;
}

describe('analyticKappaInterval (Fleiss, Cohen & Everitt 1969)', () => {
  it('uses z = 1.959963984540054', () => {
    expect(Z_95).toBe(1.959963984540054);
  });

  it("reproduces SAS's simple kappa: 0.4842, ASE 0.1380, 95% 0.2137 to 0.7547", () => {
    const interval = analyticKappaInterval(SAS_TABLE, 'unweighted')!;
    expect(interval.kappa).toBeCloseTo(0.4842, 4);
    expect(interval.standard_error).toBeCloseTo(0.138, 4);
    expect(interval.low).toBeCloseTo(0.2137, 4);
    expect(interval.high).toBeCloseTo(0.7547, 4);
  });

  it("reproduces SAS's weighted kappa (linear weights): 0.4701, ASE 0.1457, 95% 0.1845 to 0.7558", () => {
    const interval = analyticKappaInterval(SAS_TABLE, 'linear')!;
    expect(interval.kappa).toBeCloseTo(0.4701, 4);
    expect(interval.standard_error).toBeCloseTo(0.1457, 4);
    expect(interval.low).toBeCloseTo(0.1845, 4);
    expect(interval.high).toBeCloseTo(0.7558, 4);
  });

  it('gives the same interval when the table sits on the full 1–5 scale', () => {
    for (const weighting of ['unweighted', 'linear', 'quadratic'] as const) {
      const small = analyticKappaInterval(SAS_TABLE, weighting)!;
      const full = analyticKappaInterval(onFullScale(SAS_TABLE), weighting)!;
      expect(full.kappa).toBeCloseTo(small.kappa, 12);
      expect(full.standard_error).toBeCloseTo(small.standard_error, 12);
    }
  });

  it('is undefined exactly when kappa is', () => {
    expect(analyticKappaInterval(onFullScale([[0]]))).toBeUndefined();
    expect(analyticKappaInterval(onFullScale([[0, 0], [0, 7]]), 'quadratic')).toBeUndefined();
  });

  it('has zero width at perfect agreement and stays within [−1, 1]', () => {
    expect(analyticKappaInterval(onFullScale([[3, 0], [0, 4]]))).toEqual({ kappa: 1, standard_error: 0, low: 1, high: 1 });
    const tiny = analyticKappaInterval(onFullScale([[1, 1], [0, 1]]))!;
    expect(tiny.low).toBeGreaterThanOrEqual(-1);
    expect(tiny.high).toBeLessThanOrEqual(1);
  });
});
