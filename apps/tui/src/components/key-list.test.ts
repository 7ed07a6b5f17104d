import { describe, expect, it } from 'vitest';
import { keyListLines } from './key-list.js';

describe('keyListLines', () => {
  it('pads keys to one column and wraps explanations under themselves', () => {
    const lines = keyListLines(
      [
        ['t', 'transcript'],
        ['Tab', 'metric table / transcript, a long explanation that does not fit in forty columns'],
      ],
      40,
    ).map((line) => line.key + line.action);
    expect(lines[0]).toBe('  t    transcript');
    expect(lines[1]).toMatch(/^ {2}Tab {2}metric table/);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.slice(2).every((line) => /^ {7}\S/.test(line) && line.length <= 40)).toBe(true);
  });

  it('gives a key wider than the column a line of its own, its explanation below in the column', () => {
    const keys: Array<[string, string]> = [
      ['t', 'transcript'],
      ['n N', 'the next / previous message a failure points at'],
      ['PgUp PgDn Home End', 'scroll a page, to the top or the end'],
      ['?', 'this list of keys'],
    ];
    const lines = keyListLines(keys, 80).map((line) => line.key + line.action);
    const column = lines[0]!.indexOf('transcript');
    expect(lines).toContain('  PgUp PgDn Home End');
    const below = lines[lines.indexOf('  PgUp PgDn Home End') + 1]!;
    expect(below.indexOf('scroll a page')).toBe(column);
    // Every explanation starts in the same column.
    for (const line of lines.filter((text) => text !== '  PgUp PgDn Home End')) expect(line.slice(column - 2, column + 1), line).toMatch(/^ {2}\S$/);
    expect(lines.every((line) => line.length <= 80)).toBe(true);
  });
});
