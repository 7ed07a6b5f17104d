import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argumentSimilarity, describeArgumentDifferences, valuesEqual } from './argument-similarity.js';

describe('argumentSimilarity', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, number]>([
    ['two empty objects', {}, {}, 1],
    ['empty against one key', {}, { id: 1 }, 0],
    ['one of two keys equal', { id: 1, n: 2 }, { id: 1, n: 3 }, 0.5],
    ['extra actual key widens the union', { id: 1 }, { id: 1, note: 'x' }, 0.5],
    ['nested object counts its own similarity', { slot: { day: 'sat', time: '10:00' }, n: 1 }, { slot: { day: 'sat', time: '14:00' }, n: 1 }, 0.75],
    ['nested empty objects are equal', { filter: {} }, { filter: {} }, 1],
    ['arrays compare whole', { slots: ['10:00', '14:00'] }, { slots: ['14:00', '10:00'] }, 0],
    ['equal arrays', { slots: [{ at: 1 }] }, { slots: [{ at: 1 }] }, 1],
    ['a number is not its string', { n: 2 }, { n: '2' }, 0],
    ['object against a scalar is unequal', { slot: { day: 'sat' } }, { slot: 'sat' }, 0],
  ])('%s', (_, expected, actual, similarity) => {
    expect(argumentSimilarity(expected, actual)).toBeCloseTo(similarity, 12);
  });

  const value = fc.jsonValue({ maxDepth: 3 });
  const object = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), value, { maxKeys: 4 });

  it('is symmetric, in [0, 1], and 1 for an object against itself', () => {
    fc.assert(
      fc.property(object, object, (left, right) => {
        const similarity = argumentSimilarity(left, right);
        expect(similarity).toBeGreaterThanOrEqual(0);
        expect(similarity).toBeLessThanOrEqual(1);
        expect(argumentSimilarity(right, left)).toBeCloseTo(similarity, 12);
        expect(argumentSimilarity(left, structuredClone(left))).toBe(1);
      }),
    );
  });

  it('is 1 exactly when the objects are equal as data', () => {
    fc.assert(
      fc.property(object, object, (left, right) => {
        expect(argumentSimilarity(left, right) === 1).toBe(valuesEqual(left, right));
      }),
    );
  });
});

describe('valuesEqual', () => {
  it('ignores key order and compares arrays in order', () => {
    expect(valuesEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(valuesEqual([1, 2], [2, 1])).toBe(false);
    expect(valuesEqual({ a: undefined }, {})).toBe(false);
    expect(valuesEqual(null, {})).toBe(false);
  });
});

describe('describeArgumentDifferences', () => {
  it('names each differing key, nested keys dotted', () => {
    expect(describeArgumentDifferences({ n: 2, slot: { time: '10:00' }, id: 1 }, { n: 3, slot: { time: '14:00' }, note: 'x' })).toEqual([
      'n: expected 2, got 3',
      'slot.time: expected "10:00", got "14:00"',
      'id: missing',
      'note: unexpected',
    ]);
  });

  it('shortens long values', () => {
    const [difference] = describeArgumentDifferences({ text: 'a'.repeat(100) }, { text: 'b' });
    expect(difference).toBe(`text: expected "${'a'.repeat(38)}…, got "b"`);
  });
});
