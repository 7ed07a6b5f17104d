import { normalCdf } from './normal-cdf.js';

export interface TwoProportionTest {
  /** The canary's rate minus the stable rate (an absolute difference, 0.25 = 25 points). */
  difference: number;
  z: number;
  /** One-sided p-value of "the canary's rate is higher than the stable one". */
  pHigher: number;
  /** Two-sided p-value of "the rates differ". */
  pTwoSided: number;
}

/**
 * The pooled two-proportion z-test: z = (p₁ − p₂) / √(p̂(1 − p̂)(1/n₁ + 1/n₂)), where p̂ is the
 * pooled rate (x₁ + x₂)/(n₁ + n₂). Null when either group is empty; when the pooled rate is 0 or
 * 1 (no spread at all) the difference is 0 and z is 0.
 *
 * @example twoProportionZTest({ events: 90, total: 300 }, { events: 100, total: 2000 }).z // ≈ 14.7
 */
export function twoProportionZTest(first: { events: number; total: number }, second: { events: number; total: number }): TwoProportionTest | null {
  if (first.total === 0 || second.total === 0) return null;
  const p1 = first.events / first.total;
  const p2 = second.events / second.total;
  const pooled = (first.events + second.events) / (first.total + second.total);
  const standardError = Math.sqrt(pooled * (1 - pooled) * (1 / first.total + 1 / second.total));
  const z = standardError === 0 ? 0 : (p1 - p2) / standardError;
  const upperTail = 1 - normalCdf(z);
  return { difference: p1 - p2, z, pHigher: upperTail, pTwoSided: Math.min(1, 2 * Math.min(upperTail, 1 - upperTail)) };
}
