import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wrapText } from './wrap-text.js';

describe('wrapText', () => {
  it('breaks at spaces within the width', () => {
    expect(wrapText('Karibu! Ungependa siku gani ya wiki hii?', 16)).toEqual(['Karibu!', 'Ungependa siku', 'gani ya wiki', 'hii?']);
  });

  it('keeps line breaks and short text as they are', () => {
    expect(wrapText('one\ntwo', 10)).toEqual(['one', 'two']);
    expect(wrapText('', 10)).toEqual(['']);
  });

  it('cuts a word longer than the width', () => {
    expect(wrapText('abcdefghij xy', 4)).toEqual(['abcd', 'efgh', 'ij', 'xy']);
  });

  it('indents continuation lines', () => {
    expect(wrapText('- **5** Understood every request', 14, 2)).toEqual(['- **5**', '  Understood', '  every', '  request']);
  });

  it('never makes a line longer than the width and loses no word (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { maxLength: 30 }), fc.integer({ min: 4, max: 40 }), (words, width) => {
        const lines = wrapText(words.join(' '), width);
        for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(width);
        expect(lines.join('').replace(/ /g, '')).toBe(words.join(''));
      }),
    );
  });
});
