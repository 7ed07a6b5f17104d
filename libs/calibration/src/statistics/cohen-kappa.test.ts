import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cohenKappa } from './cohen-kappa.js';
import { confusionMatrix } from './confusion-matrix.js';
import { KAPPA_WEIGHTINGS } from './kappa-weights.js';
import { RATING_LABELS, type RatingPair } from './rating-labels.js';

/** Pairs from two rating lists of equal length. */
function zip(first: readonly number[], second: readonly number[]): RatingPair[] {
  return first.map((value, index) => [value, second[index]!] as const);
}

function repeat(value: number, times: number): number[] {
  return new Array<number>(times).fill(value);
}

const transpose = (matrix: number[][]): number[][] => matrix.map((row, i) => row.map((_, j) => matrix[j]![i]!));

/** Ratings on the full 1–5 scale, as pairs; at least one pair. */
const ratingPairs = fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 })), { minLength: 1, maxLength: 60 });

describe('cohenKappa: published values', () => {
  it("reproduces Wikipedia's worked example: [[20, 5], [10, 15]] → 0.4", () => {
    expect(cohenKappa([[20, 5], [10, 15]])).toBeCloseTo(0.4, 12);
  });

  it("reproduces scikit-learn's test_cohen_kappa values on the 1–5 scale", () => {
    // y1 = [0]*40 + [1]*60, y2 = [0]*20 + [1]*20 + [0]*10 + [1]*50, labels 0/1 written as 1/2.
    const first = [...repeat(1, 40), ...repeat(2, 60)];
    const second = [...repeat(1, 20), ...repeat(2, 20), ...repeat(1, 10), ...repeat(2, 50)];
    expect(cohenKappa(confusionMatrix(zip(first, second)))).toBeCloseTo(0.348, 3);

    // y1 = [0]*46 + [1]*44 + [2]*10, y2 = [0]*52 + [1]*32 + [2]*16
    const a = [...repeat(1, 46), ...repeat(2, 44), ...repeat(3, 10)];
    const b = [...repeat(1, 52), ...repeat(2, 32), ...repeat(3, 16)];
    expect(cohenKappa(confusionMatrix(zip(a, b)))).toBeCloseTo(0.8013, 4);
  });

  it("reproduces scikit-learn's weighting test: 0.9315 unweighted, 0.9412 linear, 0.9541 quadratic", () => {
    // y1 = [0]*46 + [1]*44 + [2]*10, y2 = [0]*50 + [1]*40 + [2]*10, written as 1–3 on the 1–5 scale:
    // weights by position in the full list scale every weight by the same factor, which kappa ignores.
    const first = [...repeat(1, 46), ...repeat(2, 44), ...repeat(3, 10)];
    const second = [...repeat(1, 50), ...repeat(2, 40), ...repeat(3, 10)];
    const onFullScale = confusionMatrix(zip(first, second));
    expect(onFullScale).toHaveLength(5);
    expect(cohenKappa(onFullScale, 'unweighted')).toBeCloseTo(0.9315, 4);
    expect(cohenKappa(onFullScale, 'linear')).toBeCloseTo(0.9412, 4);
    expect(cohenKappa(onFullScale, 'quadratic')).toBeCloseTo(0.9541, 4);
    const onThreeLabels = confusionMatrix(zip(first, second), [1, 2, 3]);
    for (const weighting of KAPPA_WEIGHTINGS) expect(cohenKappa(onThreeLabels, weighting)).toBeCloseTo(cohenKappa(onFullScale, weighting)!, 12);
  });

  it('weights by position in the full label list, not by the labels that occur', () => {
    // Only 1 and 5 occur: on the full scale they are four steps apart, the ends of the scale.
    const pairs: RatingPair[] = [[1, 1], [5, 5], [1, 5], [5, 1], [1, 1], [5, 5]];
    const full = cohenKappa(confusionMatrix(pairs), 'linear');
    const squeezed = cohenKappa(confusionMatrix(pairs.map(([a, b]) => [a === 5 ? 2 : a, b === 5 ? 2 : b] as const)), 'linear');
    // Two used labels at the ends of the scale behave like a two-label scale: same kappa either way.
    expect(full).toBeCloseTo(squeezed!, 12);
    // But with a middle label in use, moving a label changes the weighted kappa: positions matter.
    const withMiddle: RatingPair[] = [[1, 3], [3, 5], [5, 5], [1, 1], [3, 3]];
    const moved = withMiddle.map(([a, b]) => [a === 3 ? 2 : a, b === 3 ? 2 : b] as const);
    expect(cohenKappa(confusionMatrix(withMiddle), 'quadratic')).not.toBeCloseTo(cohenKappa(confusionMatrix(moved), 'quadratic')!, 3);
  });
});

describe('cohenKappa: undefined is undefined', () => {
  it('is undefined with no pairs, never NaN, 0 or 1', () => {
    for (const weighting of KAPPA_WEIGHTINGS) expect(cohenKappa(confusionMatrix([]), weighting)).toBeUndefined();
  });

  it('is undefined when both raters used one and the same category throughout', () => {
    const allFours = confusionMatrix(repeat(4, 12).map((value) => [value, value] as const));
    for (const weighting of KAPPA_WEIGHTINGS) expect(cohenKappa(allFours, weighting)).toBeUndefined();
  });

  it('is defined (and 0) when one rater used one category and the other several', () => {
    const pairs: RatingPair[] = [[4, 3], [4, 4], [4, 5]];
    for (const weighting of KAPPA_WEIGHTINGS) expect(cohenKappa(confusionMatrix(pairs), weighting)).toBe(0);
  });

  it('refuses a rating that is not on the scale instead of dropping it', () => {
    expect(() => confusionMatrix([[6, 5]])).toThrow('rating 6 is not on the scale 1, 2, 3, 4, 5');
    expect(() => confusionMatrix([[0, 5]])).toThrow(RangeError);
  });
});

describe('cohenKappa: laws', () => {
  it('is symmetric in its raters', () => {
    fc.assert(
      fc.property(ratingPairs, fc.constantFrom(...KAPPA_WEIGHTINGS), (pairs, weighting) => {
        const matrix = confusionMatrix(pairs);
        const swapped = confusionMatrix(pairs.map(([a, b]) => [b, a] as const));
        expect(swapped).toEqual(transpose(matrix));
        const forward = cohenKappa(matrix, weighting);
        const backward = cohenKappa(swapped, weighting);
        if (forward === undefined) expect(backward).toBeUndefined();
        else expect(backward).toBeCloseTo(forward, 12);
      }),
    );
  });

  it('gives exactly 1 for perfect agreement whenever it is defined', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 60 }), fc.constantFrom(...KAPPA_WEIGHTINGS), (ratings, weighting) => {
        const kappa = cohenKappa(confusionMatrix(ratings.map((value) => [value, value] as const)), weighting);
        if (new Set(ratings).size === 1) expect(kappa).toBeUndefined();
        else expect(kappa).toBe(1);
      }),
    );
  });

  it('is unchanged (unweighted) when both raters are relabelled by the same permutation', () => {
    fc.assert(
      fc.property(ratingPairs, fc.shuffledSubarray([...RATING_LABELS], { minLength: 5, maxLength: 5 }), (pairs, permutation) => {
        const relabel = (value: number): number => permutation[value - 1]!;
        const before = cohenKappa(confusionMatrix(pairs));
        const after = cohenKappa(confusionMatrix(pairs.map(([a, b]) => [relabel(a), relabel(b)] as const)));
        if (before === undefined) expect(after).toBeUndefined();
        else expect(after).toBeCloseTo(before, 12);
      }),
    );
  });

  it('never exceeds 1, is never NaN, and (unweighted, quadratic) is at least −1', () => {
    fc.assert(
      fc.property(ratingPairs, fc.constantFrom(...KAPPA_WEIGHTINGS), (pairs, weighting) => {
        const kappa = cohenKappa(confusionMatrix(pairs), weighting);
        if (kappa !== undefined) {
          expect(Number.isNaN(kappa)).toBe(false);
          expect(kappa).toBeLessThanOrEqual(1 + 1e-12);
          // Bounded below by −1 for these two (quadratic kappa is a scaled covariance); linear is not.
          if (weighting !== 'linear') expect(kappa).toBeGreaterThanOrEqual(-1 - 1e-12);
        }
      }),
    );
  });
});
