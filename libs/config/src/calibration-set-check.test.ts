import { describe, expect, it } from 'vitest';
import { CalibrationSetSchema } from './calibration-schema.js';
import { quickCalibrationSet } from './calibration-set-check.js';

const rating = { reviewer: 'ana', rated_at: '2026-11-02T09:30:00+02:00', rubric_version: '1.0.0', clarity: 4, tone: 5 };
const item = {
  id: 'c-001',
  added: '2026-11-01',
  source: 'scenario:greet[lang=zu]@v2',
  language: 'zu',
  transcript: [
    { role: 'user', content: 'Sawubona' },
    { role: 'assistant', content: 'Yebo' },
  ],
  ratings: [rating],
};
const set = { schema_version: 1, rubric_version: '1.0.0', owner: 'qa', axes: ['clarity', 'tone'], items: [item] };

/** A copy of `value` with every object's keys in reverse order (YAML keys may come in any order). */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([key, inner]) => [key, reversedKeys(inner)]));
}

function withItem(changes: Record<string, unknown>): unknown {
  return { ...set, items: [{ ...item, ...changes }] };
}

function withRating(changes: Record<string, unknown>): unknown {
  return withItem({ ratings: [{ ...rating, ...changes }] });
}

describe('quickCalibrationSet', () => {
  const accepted: Array<[string, unknown]> = [
    ['a rated item', set],
    ['keys in another order', reversedKeys(set)],
    ['a note, a vertical and a missing axis', withItem({ vertical: 'banking', ratings: [{ tone: 3, reviewer: 'ana', rated_at: '2026-11-02T09:30:00.250+02:00', rubric_version: '1.0.0', note: 'terse', clarity: 1 }, { reviewer: 'bo', rated_at: '2026-11-02T07:30:00Z', rubric_version: '1.0.0', tone: 2 }] })],
    ['an item without ratings', withItem({ ratings: undefined })],
    ['no items', { schema_version: 1, rubric_version: '1', owner: 'qa', axes: ['clarity'] }],
  ];
  it.each(accepted)('gives what the schema gives: %s', (_name, value) => {
    const clean = JSON.parse(JSON.stringify(value)) as unknown;
    const expected = CalibrationSetSchema.parse(clean);
    const quick = quickCalibrationSet(clean);
    expect(quick).toEqual(expected);
    // The same key order too: the reports and the page are written from this value.
    expect(JSON.stringify(quick)).toBe(JSON.stringify(expected));
  });

  const refused: Array<[string, unknown]> = [
    ['a rating of 6', withRating({ clarity: 6 })],
    ['a rating of 2.5', withRating({ clarity: 2.5 })],
    ['a key that is not an axis', withRating({ warmth: 3 })],
    ['a timestamp without offset', withRating({ rated_at: '2026-11-02T09:30:00' })],
    ['an impossible date', withItem({ added: '2026-02-30' })],
    ['an unknown source', withItem({ source: 'elsewhere' })],
    ['a language name', withItem({ language: 'Zulu' })],
    ['an empty transcript', withItem({ transcript: [] })],
    ['a system message', withItem({ transcript: [{ role: 'system', content: 'x' }] })],
    ['an unknown item key', withItem({ extra: 1 })],
    ['an empty reviewer', withRating({ reviewer: '' })],
    ['a vertical of null', withItem({ vertical: null })],
    ['a duplicate item id', { ...set, items: [item, item] }],
    ['an axis twice', { ...set, axes: ['clarity', 'tone', 'tone'] }],
    ['a meta key as axis', { ...set, axes: ['clarity', 'tone', 'note'] }],
    ['another schema version', { ...set, schema_version: 2 }],
    ['no axes', { ...set, axes: [] }],
    ['an unknown top-level key', { ...set, extra: true }],
    ['a list', [set]],
  ];
  it.each(refused)('leaves to the schema what it rejects: %s', (_name, value) => {
    expect(CalibrationSetSchema.safeParse(value).success).toBe(false);
    expect(quickCalibrationSet(value)).toBeUndefined();
  });
});
