import { describe, expect, it } from 'vitest';
import { normaliseText } from './text-normalisation.js';

describe('normaliseText', () => {
  it.each<[string, string, string]>([
    ['lower-cases', 'BK-1042 Confirmed', 'bk-1042 confirmed'],
    ['collapses whitespace runs and line breaks', '0800\t150 \n 150', '0800 150 150'],
    ['maps full-width forms (NFKC)', 'ＫＥＳ １５０', 'kes 150'],
    ['maps non-breaking spaces', 'KES\u00a0150', 'kes 150'],
    ['maps ligatures', 'ﬁle', 'file'],
    ['composes accents', 'cafe\u0301', 'café'],
    ['trims', '  hi  ', 'hi'],
  ])('%s', (_, input, output) => {
    expect(normaliseText(input)).toBe(output);
  });
});
