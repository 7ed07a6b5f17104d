import { describe, expect, it } from 'vitest';
import { DEFAULT_POWER, minimumCanarySize } from './minimum-sample-size.js';

describe('minimumCanarySize', () => {
  it('matches the equal-groups formula for 5 % → 10 %, α 0.05 one-sided, power 0.8 (≈ 343 per group)', () => {
    // Fleiss without continuity correction gives 342.3 → 343 with exact quantiles; simple-statistics'
    // probit (1.6434 for 0.95) gives 342.
    expect(minimumCanarySize(0.05, 1)).toBeGreaterThanOrEqual(340);
    expect(minimumCanarySize(0.05, 1)).toBeLessThanOrEqual(344);
  });

  it('needs fewer canary conversations when stable has many more', () => {
    expect(minimumCanarySize(0.05, 19)).toBe(160);
    expect(minimumCanarySize(0.05, 19)).toBeLessThan(minimumCanarySize(0.05, 1));
  });

  it('needs more for a smaller rise, more power or a stricter α', () => {
    const base = minimumCanarySize(0.05, 19);
    expect(minimumCanarySize(0.05, 19, { ...DEFAULT_POWER, rise: 0.02 })).toBeGreaterThan(base);
    expect(minimumCanarySize(0.05, 19, { ...DEFAULT_POWER, power: 0.9 })).toBeGreaterThan(base);
    expect(minimumCanarySize(0.05, 19, { ...DEFAULT_POWER, alpha: 0.01 })).toBeGreaterThan(base);
  });
});
