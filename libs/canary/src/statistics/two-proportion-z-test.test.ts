import { describe, expect, it } from 'vitest';
import { twoProportionZTest } from './two-proportion-z-test.js';

describe('twoProportionZTest', () => {
  it('reproduces a textbook value', () => {
    // 45 of 100 vs 30 of 100: pooled 0.375, SE 0.06847, z = 2.191, one-sided p 0.0142, two-sided 0.0285.
    const test = twoProportionZTest({ events: 45, total: 100 }, { events: 30, total: 100 })!;
    expect(test.difference).toBeCloseTo(0.15, 10);
    expect(test.z).toBeCloseTo(2.1909, 3);
    expect(test.pHigher).toBeCloseTo(0.01423, 4);
    expect(test.pTwoSided).toBeCloseTo(0.02846, 4);
  });

  it('is antisymmetric in its groups', () => {
    const forward = twoProportionZTest({ events: 12, total: 80 }, { events: 40, total: 700 })!;
    const backward = twoProportionZTest({ events: 40, total: 700 }, { events: 12, total: 80 })!;
    expect(backward.z).toBeCloseTo(-forward.z, 10);
    expect(backward.pTwoSided).toBeCloseTo(forward.pTwoSided, 10);
  });

  it('has no test for an empty group, and z = 0 when nobody (or everybody) had the event', () => {
    expect(twoProportionZTest({ events: 0, total: 0 }, { events: 3, total: 10 })).toBeNull();
    const none = twoProportionZTest({ events: 0, total: 10 }, { events: 0, total: 50 })!;
    expect(none.z).toBe(0);
    expect(none.pTwoSided).toBeCloseTo(1, 6);
  });
});
