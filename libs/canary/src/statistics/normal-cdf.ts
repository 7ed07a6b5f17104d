import { errorFunction } from 'simple-statistics';

/**
 * Φ(z), the standard normal CDF: (1 + erf(z/√2)) / 2, with simple-statistics' erf (good to
 * 1.2 × 10⁻⁷). Exact at ±∞ (0 and 1), where a drop test with no spread puts its statistic.
 *
 * @example normalCdf(-1.959964) // ≈ 0.025
 */
export function normalCdf(z: number): number {
  if (z === -Infinity) return 0;
  if (z === Infinity) return 1;
  return (1 + errorFunction(z / Math.SQRT2)) / 2;
}
