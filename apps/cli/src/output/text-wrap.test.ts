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

describe('a word longer than the line', () => {
  it('breaks after a comma or a slash, never inside a file name (the reports line off a terminal, 80 columns)', () => {
    const text = 'reports: .parley/runs/20261127-233755-1e007f/{report.json,junit.xml,summary.md,report.html} (in a browser: parley show-report 20261127-233755-1e007f)';
    const lines = hangingWrap(text, 79, '  ');
    expect(lines).toEqual([
      'reports:',
      '  .parley/runs/20261127-233755-1e007f/{report.json,junit.xml,summary.md,',
      '  report.html} (in a browser: parley show-report 20261127-233755-1e007f)',
    ]);
  });

  it('is cut at the width when it has no comma or slash in the second half of the line', () => {
    expect(wrapText('abcdefghijklmnopqrstuvwxyz0123456789', 20)).toEqual(['abcdefghijklmnopqrst', 'uvwxyz0123456789']);
  });

  it('never makes a line wider than asked and loses no character', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z,/.]{1,200}$/), { maxLength: 10 }), fc.integer({ min: 30, max: 120 }), (words, width) => {
        const lines = wrapText(words.join(' '), width, '  ');
        for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
        expect(lines.join('').replace(/\s+/g, '')).toBe(words.join(''));
      }),
    );
  });
});

describe('fitLine', () => {
  it('cuts a long line with an ellipsis', () => {
    expect(fitLine('spa_booking_swahili_happy_path', 10)).toBe('spa_booki…');
    expect(fitLine('short', 10)).toBe('short');
  });
});
