/**
 * Cohen's kappa from a flat `k × k` table of counts and flat disagreement weights:
 * `1 − observed disagreement / disagreement expected from the two raters' marginals`.
 * `undefined` when no disagreement was possible at all (no pairs, or both raters used one and
 * the same label throughout): that is 0/0, not agreement and not its absence.
 *
 * Works on counts, not proportions, so that perfect agreement gives exactly 1. Shared by
 * {@link cohenKappa} and the bootstrap, which calls it a thousand times per interval.
 */
export function kappaFromCounts(
  counts: ArrayLike<number>,
  size: number,
  weights: ArrayLike<number>,
  /** Where the table starts in `counts` (several tables can share one array). */
  offset = 0,
  /** Reused scratch space of `size` numbers each, so that a bootstrap allocates nothing per call. */
  rowTotals: Float64Array = new Float64Array(size),
  columnTotals: Float64Array = new Float64Array(size),
): number | undefined {
  rowTotals.fill(0);
  columnTotals.fill(0);
  let total = 0;
  let observed = 0;
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column < size; column += 1) {
      const count = counts[offset + row * size + column]!;
      if (count === 0) continue;
      rowTotals[row]! += count;
      columnTotals[column]! += count;
      total += count;
      observed += weights[row * size + column]! * count;
    }
  }
  if (total === 0) return undefined;
  let expected = 0;
  for (let row = 0; row < size; row += 1) {
    const rowTotal = rowTotals[row]!;
    if (rowTotal === 0) continue;
    for (let column = 0; column < size; column += 1) expected += weights[row * size + column]! * rowTotal * columnTotals[column]!;
  }
  if (expected === 0) return undefined;
  return 1 - (observed * total) / expected;
}
