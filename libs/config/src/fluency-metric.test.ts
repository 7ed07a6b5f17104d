import { describe, expect, it } from 'vitest';
import { fluencyMetricFor } from './fluency-metric.js';

const known = (names: string[]) => (name: string) => names.includes(name);

describe('fluencyMetricFor', () => {
  it('is fluency_<language> when the suite knows it', () => {
    expect(fluencyMetricFor('zu', known(['fluency_zu']), new Map())).toBe('fluency_zu');
  });
  it('is the suite metric that replaces it, even when the built-in exists', () => {
    expect(fluencyMetricFor('en', known(['fluency_en', 'fluency_en_za']), new Map([['fluency_en', 'fluency_en_za']]))).toBe('fluency_en_za');
  });
  it('is undefined for a language nothing judges, and for no language', () => {
    expect(fluencyMetricFor('xh', known(['fluency_en']), new Map())).toBeUndefined();
    expect(fluencyMetricFor(undefined, known(['fluency_en']), new Map())).toBeUndefined();
  });
});
