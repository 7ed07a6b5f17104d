import type { Random } from '@parley/core';
import { mean } from 'simple-statistics';

/** Up to this many pairs every sign assignment is enumerated (2^16 = 65,536 means); beyond, they are sampled. */
const MAX_EXACT_PAIRS = 16;
/** Means within this distance of the observed one count as "as extreme" (floating-point sums). */
const TOLERANCE = 1e-12;

export interface PermutationTestResult {
  /** Two-sided p-value: how often a mean delta at least this far from 0 arises when the signs of the deltas are random. */
  p_value: number;
  /** `exact` (every sign assignment) or `sampled` (Monte Carlo, seeded). */
  method: 'exact' | 'sampled';
  /** Sign assignments evaluated. */
  permutations: number;
}

/**
 * The paired sign-flip permutation test of whether the mean of paired differences is 0. Under the
 * null hypothesis (run B is run A with noise) each scenario's delta is as likely negative as
 * positive, so flipping signs at random gives the distribution of the mean delta. It assumes
 * nothing about the shape of the scores (judge scores are bounded and lumpy, far from normal)
 * and is exact for small suites, which is what a suite of a few dozen scenarios needs.
 *
 * With more than 16 pairs, `samples` random assignments from `random` (seeded, so a report is
 * reproducible) estimate the p-value as (hits + 1) / (samples + 1), never 0.
 *
 * @example pairedPermutationTest([-0.1, -0.2, -0.15, -0.1, -0.12], seededRandom(1)).p_value === 0.0625 // 2 of 32
 */
export function pairedPermutationTest(deltas: readonly number[], random: Random, samples = 10_000): PermutationTestResult {
  if (deltas.length === 0) return { p_value: 1, method: 'exact', permutations: 0 };
  const observed = Math.abs(mean(deltas));
  const sum = (signs: (index: number) => number): number => deltas.reduce((total, delta, index) => total + signs(index) * delta, 0);
  const extreme = (total: number): boolean => Math.abs(total / deltas.length) >= observed - TOLERANCE;

  if (deltas.length <= MAX_EXACT_PAIRS) {
    const assignments = 2 ** deltas.length;
    let hits = 0;
    for (let mask = 0; mask < assignments; mask += 1) {
      if (extreme(sum((index) => ((mask >> index) & 1 ? -1 : 1)))) hits += 1;
    }
    return { p_value: hits / assignments, method: 'exact', permutations: assignments };
  }
  let hits = 0;
  for (let sample = 0; sample < samples; sample += 1) {
    if (extreme(sum(() => (random.next() < 0.5 ? -1 : 1)))) hits += 1;
  }
  return { p_value: (hits + 1) / (samples + 1), method: 'sampled', permutations: samples };
}
