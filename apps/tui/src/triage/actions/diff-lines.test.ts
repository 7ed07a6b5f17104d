import { describe, expect, it } from 'vitest';
import { makeTheme } from '../../theme.js';
import { diffStyledLines, wrapSegments } from './diff-lines.js';

const text = (row: readonly { text: string }[]) => row.map((segment) => segment.text).join('');

describe('diff lines', () => {
  it('wraps a long line after a space, keeping each segment’s style across the break', () => {
    const rows = wrapSegments([{ text: 'one two ' }, { text: 'three', inverse: true }, { text: ' four five' }], 10);
    expect(rows.map(text)).toEqual(['one two ', 'three ', 'four five']);
    expect(rows[1]).toEqual([{ text: 'three', inverse: true }, { text: ' ' }]);
  });

  it('keeps the mark on every row of a wrapped line and shows the changed words in inverse video', () => {
    const before = `assistant: ${'neno '.repeat(20)}saa 10:00 ipo.`;
    const after = `assistant: ${'neno '.repeat(20)}saa 11:00 ipo.`;
    const lines = diffStyledLines(
      {
        added: 1,
        removed: 1,
        lines: [
          { kind: 'removed', text: before, parts: [{ text: before.replace('10:00 ipo.', ''), changed: false }, { text: '10:00', changed: true }, { text: ' ipo.', changed: false }] },
          { kind: 'added', text: after, parts: [{ text: after.replace('11:00 ipo.', ''), changed: false }, { text: '11:00', changed: true }, { text: ' ipo.', changed: false }] },
        ],
      },
      80,
      makeTheme(false),
    );
    expect(lines.map(text).every((line) => Array.from(line).length <= 80)).toBe(true);
    expect(lines.map(text)).toEqual([expect.stringMatching(/^- assistant: neno/), expect.stringMatching(/^- .*saa 10:00 ipo\.$/), expect.stringMatching(/^\+ assistant/), expect.stringMatching(/^\+ .*saa 11:00 ipo\.$/)]);
    expect(lines[1]?.filter((segment) => segment.inverse).map((segment) => segment.text)).toEqual(['10:00']);
    expect(lines[3]?.filter((segment) => segment.inverse).map((segment) => segment.text)).toEqual(['11:00']);
  });
});
