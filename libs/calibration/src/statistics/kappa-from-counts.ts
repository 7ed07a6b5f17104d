/**
 * Cohen's kappa from a flat `k × k` table of counts and flat disagreement weights:
 * `1 − observed disagreement / disagreement expected from the two raters' marginals`.
 * `undefined` when no disagreement was possible at all (no pairs, or both raters used one and
 * the same label throughout): that is 0/0, not agreement and not its absence.
 *
 * Works on counts, not proportions, so that perfect agreement gives exactly 1. Used by
 * {@link cohenKappa}; the bootstrap takes several weightings at once ({@link kappasFromCounts}).
 */
export function kappaFromCounts(counts: ArrayLike<number>, size: number, weights: ArrayLike<number>): number | undefined {
  const kappa = new Float64Array(1);
  kappasFromCounts(counts, size, [weights], 0, new Float64Array(size), new Float64Array(size), kappa);
  return Number.isNaN(kappa[0]) ? undefined : kappa[0];
}

/**
 * {@link kappaFromCounts} for several weightings of one table, written to `kappas` (NaN where
 * kappa is undefined). The marginals are counted once for all of them; each weighting's sums are
 * taken in the same order as alone, so every kappa is the same to the last bit. The bootstrap
 * calls it for every table of every resample (16 tables, 3 weightings, 1,000 resamples).
 */
export function kappasFromCounts(
  counts: ArrayLike<number>,
  size: number,
  weights: ReadonlyArray<ArrayLike<number>>,
  /** Where the table starts in `counts` (several tables can share one array). */
  offset: number,
  /** Reused scratch space of `size` numbers each, so that a bootstrap allocates nothing per call. */
  rowTotals: Float64Array,
  columnTotals: Float64Array,
  /** One per weighting: the observed disagreement while counting, then the kappa. */
  kappas: Float64Array,
): void {
  rowTotals.fill(0);
  columnTotals.fill(0);
  kappas.fill(0);
  let total = 0;
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column < size; column += 1) {
      const count = counts[offset + row * size + column]!;
      if (count === 0) continue;
      rowTotals[row]! += count;
      columnTotals[column]! += count;
      total += count;
      for (let weighting = 0; weighting < weights.length; weighting += 1) kappas[weighting]! += weights[weighting]![row * size + column]! * count;
    }
  }
  for (let weighting = 0; weighting < weights.length; weighting += 1) {
    const table = weights[weighting]!;
    let expected = 0;
    for (let row = 0; row < size; row += 1) {
      const rowTotal = rowTotals[row]!;
      if (rowTotal === 0) continue;
      for (let column = 0; column < size; column += 1) expected += table[row * size + column]! * rowTotal * columnTotals[column]!;
    }
    // No pairs (total 0) leaves expected at 0 too.
    kappas[weighting] = expected === 0 ? Number.NaN : 1 - (kappas[weighting]! * total) / expected;
  }
}
