import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitLine, hangingWrap, wrapText } from './text-wrap.js';

describe('wrapText', () => {
  it('wraps at word boundaries with every line indented', () => {
    expect(wrapText('content_signals: forbidden "reservation" found', 24, '    ')).toEqual(['    content_signals:', '    forbidden', '    "reservation" found']);
  });

  it('never makes a line wider than asked and loses no word', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,30}$/), { maxLength: 40 }), fc.integer({ min: 30, max: 120 }), (words, width) => {
        const lines = wrapText(words.join(' '), width, '  ');
        for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
        expect(lines.map((line) => line.trim()).join(' ').replace(/\s+/g, ' ').trim().replace(/ /g, '')).toBe(words.join(''));
      }),
    );
  });
});

describe('hangingWrap', () => {
  it('keeps the first line at the margin and indents the rest', () => {
    expect(hangingWrap('PASS · 8 scenarios: 7 pass, 1 fail · replay · $0.3634', 30, '  ')).toEqual(['PASS · 8 scenarios: 7 pass, 1', '  fail · replay · $0.3634']);
  });
});

describe('fitLine', () => {
  it('cuts a long line with an ellipsis', () => {
    expect(fitLine('spa_booking_swahili_happy_path', 10)).toBe('spa_booki…');
    expect(fitLine('short', 10)).toBe('short');
  });
});
