import { probit } from 'simple-statistics';

export interface PowerSettings {
  /** The absolute rise in 👎 rate to detect, as a fraction (0.05 = 5 points). */
  rise: number;
  /** One-sided significance level (0.05). */
  alpha: number;
  /** Chance of detecting a rise of that size when there is one (0.8). */
  power: number;
}

export const DEFAULT_POWER: PowerSettings = { rise: 0.05, alpha: 0.05, power: 0.8 };

/**
 * How many canary conversations a one-sided two-proportion z-test needs to detect a rise of
 * `rise` over the stable rate `baseline` with the given α and power, when the stable arm has
 * `ratio` times as many conversations as the canary (unequal groups, Fleiss' formula):
 *
 *   n_canary = (z₁₋α·√(p̄q̄(1 + 1/k)) + z₁₋β·√(p_c·q_c + p_s·q_s/k))² / δ²
 *
 * with p_s = baseline, p_c = baseline + δ, k = ratio, p̄ = (p_c + k·p_s)/(1 + k), q = 1 − p.
 * Rounded up. Example: baseline 5 %, δ = 5 points, α 0.05, power 0.8, k = 19 (a 5 % canary) → 160;
 * k = 1 (equal arms) → 342.
 */
export function minimumCanarySize(baseline: number, ratio: number, settings: PowerSettings = DEFAULT_POWER): number {
  const stable = Math.min(Math.max(baseline, 0), 1 - settings.rise);
  const canary = stable + settings.rise;
  const k = Math.max(ratio, 1e-9);
  const pooled = (canary + k * stable) / (1 + k);
  const zAlpha = probit(1 - settings.alpha);
  const zBeta = probit(settings.power);
  const root = zAlpha * Math.sqrt(pooled * (1 - pooled) * (1 + 1 / k)) + zBeta * Math.sqrt(canary * (1 - canary) + (stable * (1 - stable)) / k);
  return Math.ceil((root * root) / (settings.rise * settings.rise));
}
