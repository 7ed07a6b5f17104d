import { sha256Hex } from '@parley/core';

/**
 * The scenarios `judge.cross_check` re-judges (docs/file-formats.md, "Judge metrics"): a
 * deterministic sample of `ceil(fraction × count)` scenarios, chosen by ranking each id's sha256
 * under the run seed. The same ids and seed always give the same sample, whatever order the ids
 * come in, and the sample size is exact (10% of 50 is 5, never 4 or 6), so the cost of
 * cross-checking is predictable. Another seed picks another sample, so over many runs every
 * scenario gets cross-checked.
 *
 * @example crossCheckSample(fiftyIds, 0.1, 7).size === 5
 */
export function crossCheckSample(scenarioIds: readonly string[], fraction: number, seed: number): Set<string> {
  const unique = [...new Set(scenarioIds)];
  // Rounded first so that 0.07 × 100 (7.000000000000001 in floating point) is 7, not 8.
  const size = Math.min(unique.length, Math.ceil(Math.round(Math.max(0, fraction) * unique.length * 1e9) / 1e9));
  const ranked = unique
    .map((id) => ({ id, rank: sha256Hex(`${seed}\u0000${id}`) }))
    .sort((left, right) => (left.rank < right.rank ? -1 : left.rank > right.rank ? 1 : 0));
  return new Set(ranked.slice(0, size).map((entry) => entry.id));
}
