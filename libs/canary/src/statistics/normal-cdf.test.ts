import { describe, expect, it } from 'vitest';
import { normalCdf } from './normal-cdf.js';

describe('normalCdf', () => {
  it('reproduces the standard normal table', () => {
    // Published values of Φ (e.g. NIST/SEMATECH e-Handbook, table of the normal distribution).
    expect(normalCdf(1)).toBeCloseTo(0.841345, 6);
    expect(normalCdf(-3)).toBeCloseTo(0.00135, 5);
    expect(normalCdf(2.575829)).toBeCloseTo(0.995, 6);
  });

  it('is 0 and 1 at the infinities, and symmetric', () => {
    expect(normalCdf(-Infinity)).toBe(0);
    expect(normalCdf(Infinity)).toBe(1);
    expect(normalCdf(0.7) + normalCdf(-0.7)).toBeCloseTo(1, 12);
  });
});
