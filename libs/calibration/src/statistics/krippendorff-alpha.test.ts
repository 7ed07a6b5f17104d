import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { krippendorffAlpha, type ReliabilityUnit } from './krippendorff-alpha.js';

const _ = null;

/**
 * Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section E: 4 observers (A–D)
 * rate 12 units on 1–5 with missing values. Written here unit by unit ([A, B, C, D]).
 * Published: nominal 0.743, ordinal 0.815, interval 0.849.
 */
const KRIPPENDORFF_2011: ReliabilityUnit[] = [
  [1, 1, _, 1],
  [2, 2, 3, 2],
  [3, 3, 3, 3],
  [3, 3, 3, 3],
  [2, 2, 2, 2],
  [1, 2, 3, 4],
  [4, 4, 4, 4],
  [1, 1, 2, 1],
  [2, 2, 2, 2],
  [_, 5, 5, 5],
  [_, _, 1, 1],
  [_, 3, _, _],
];

describe('krippendorffAlpha: published values', () => {
  it('reproduces Krippendorff (2011): nominal 0.743, ordinal 0.815, interval 0.849', () => {
    expect(krippendorffAlpha(KRIPPENDORFF_2011, 'nominal')).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(KRIPPENDORFF_2011, 'ordinal')).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(KRIPPENDORFF_2011, 'interval')).toBeCloseTo(0.849, 3);
  });

  it('ignores units with a single value (unit 12 above changes nothing)', () => {
    const without = KRIPPENDORFF_2011.slice(0, 11);
    for (const level of ['nominal', 'ordinal', 'interval'] as const) {
      expect(krippendorffAlpha(without, level)).toBe(krippendorffAlpha(KRIPPENDORFF_2011, level));
    }
  });
});

describe('krippendorffAlpha: undefined and laws', () => {
  it('is undefined with nothing pairable or a single value throughout', () => {
    expect(krippendorffAlpha([], 'ordinal')).toBeUndefined();
    expect(krippendorffAlpha([[3, _], [_, 4]], 'ordinal')).toBeUndefined();
    expect(krippendorffAlpha([[4, 4], [4, 4, 4]], 'interval')).toBeUndefined();
  });

  const units = fc.array(fc.array(fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }), { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 30 });
  const levels = fc.constantFrom('nominal' as const, 'ordinal' as const, 'interval' as const);

  it('does not depend on the order of the raters', () => {
    fc.assert(
      fc.property(units, levels, (data, level) => {
        const reversed = data.map((unit) => [...unit].reverse());
        const forward = krippendorffAlpha(data, level);
        const backward = krippendorffAlpha(reversed, level);
        if (forward === undefined) expect(backward).toBeUndefined();
        else expect(backward).toBeCloseTo(forward, 12);
      }),
    );
  });

  it('is 1 for perfect agreement whenever it is defined', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 30 }), levels, (values, level) => {
        const alpha = krippendorffAlpha(values.map((value, index) => (index % 3 === 0 ? [value, value, _] : [value, value, value])), level);
        if (new Set(values).size === 1) expect(alpha).toBeUndefined();
        else expect(alpha).toBeCloseTo(1, 12);
      }),
    );
  });

  it('lies between 0 and 1 for two raters who mostly agree', () => {
    // Two raters, complete data, one-step disagreements on half the units.
    const data: ReliabilityUnit[] = [[1, 1], [2, 3], [3, 3], [4, 5], [5, 5], [1, 2]];
    const alpha = krippendorffAlpha(data, 'interval')!;
    expect(alpha).toBeGreaterThan(0);
    expect(alpha).toBeLessThan(1);
  });

  it('counts units of two values as the coincidence formula does', () => {
    // o_ck = Σ over units of (pairs of values c, k in the unit) / (values in the unit − 1), written out.
    const byFormula = (data: ReliabilityUnit[], level: 'nominal' | 'interval'): number | undefined => {
      const present = data.map((unit) => unit.filter((value): value is number => value !== null && value !== undefined)).filter((values) => values.length >= 2);
      const coincidences = new Map<string, number>();
      for (const values of present) {
        values.forEach((c, i) => values.forEach((k, j) => i !== j && coincidences.set(`${c},${k}`, (coincidences.get(`${c},${k}`) ?? 0) + 1 / (values.length - 1))));
      }
      const marginal = new Map<number, number>();
      for (const [key, count] of coincidences) marginal.set(Number(key.split(',')[0]), (marginal.get(Number(key.split(',')[0])) ?? 0) + count);
      const total = [...marginal.values()].reduce((sum, count) => sum + count, 0);
      const delta = (c: number, k: number) => (c === k ? 0 : level === 'nominal' ? 1 : (c - k) ** 2);
      let observed = 0;
      for (const [key, count] of coincidences) observed += count * delta(Number(key.split(',')[0]), Number(key.split(',')[1]));
      let expected = 0;
      for (const [c, nc] of marginal) for (const [k, nk] of marginal) expected += nc * nk * delta(c, k);
      return expected === 0 ? undefined : 1 - ((total - 1) * observed) / expected;
    };
    fc.assert(
      fc.property(units, fc.constantFrom('nominal' as const, 'interval' as const), (data, level) => {
        const alpha = krippendorffAlpha(data, level);
        const expected = byFormula(data, level);
        if (expected === undefined) expect(alpha).toBeUndefined();
        else expect(alpha).toBeCloseTo(expected, 10);
      }),
    );
  });
});
