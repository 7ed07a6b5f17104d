import { describe, expect, it } from 'vitest';
import type { ConversationDiff } from '@parley/providers';
import { makeTheme } from '../../theme.js';
import { diffPairs, sideBySideLines } from './side-by-side-lines.js';

const text = (row: readonly { text: string }[]) => row.map((segment) => segment.text).join('');

const long = (time: string) => `assistant: ${'neno '.repeat(20)}saa ${time} ipo.`;
const DIFF: ConversationDiff = {
  added: 2,
  removed: 1,
  lines: [
    { kind: 'same', text: 'user: Habari' },
    {
      kind: 'removed',
      text: long('10:00'),
      parts: [{ text: long('10:00').replace('10:00 ipo.', ''), changed: false }, { text: '10:00', changed: true }, { text: ' ipo.', changed: false }],
    },
    {
      kind: 'added',
      text: long('11:00'),
      parts: [{ text: long('11:00').replace('11:00 ipo.', ''), changed: false }, { text: '11:00', changed: true }, { text: ' ipo.', changed: false }],
    },
    { kind: 'added', text: 'assistant: Asante' },
    { kind: 'same', text: 'user: Kwaheri' },
  ],
};

describe('side-by-side diff', () => {
  it('pairs each removed line with the added line that replaced it; the rest stand alone or on both sides', () => {
    expect(diffPairs(DIFF).map((pair) => [pair.left?.kind, pair.right?.kind])).toEqual([
      ['same', 'same'],
      ['removed', 'added'],
      [undefined, 'added'],
      ['same', 'same'],
    ]);
  });

  it('cuts every pair to one line but the selected one, which is shown whole with its changed words inverse', () => {
    const pairs = diffPairs(DIFF);
    const theme = makeTheme(false);
    const cutView = sideBySideLines(pairs, 0, 120, theme);
    expect(cutView.lines).toHaveLength(4);
    expect(cutView.starts).toEqual([0, 1, 2, 3]);
    expect(text(cutView.lines[0]!)).toMatch(/^> {3}user: Habari\s+│ {3}user: Habari\s*$/);
    expect(text(cutView.lines[1]!)).toMatch(/^ {2}- assistant: neno .*… │ \+ assistant: neno .*…$/);
    expect(text(cutView.lines[2]!)).toMatch(/^ {2}\s+│ \+ assistant: Asante/);

    const expanded = sideBySideLines(pairs, 1, 120, theme);
    const rows = expanded.lines.slice(expanded.starts[1], expanded.starts[2]).map(text);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows[0]).toMatch(/^> - assistant: neno/);
    expect(rows.at(-1)).toMatch(/saa 10:00 ipo\.\s+│ {3}.*saa 11:00 ipo\.\s*$/);
    const changed = expanded.lines.slice(expanded.starts[1], expanded.starts[2]).flatMap((line) => line.filter((segment) => segment.inverse && segment.text.includes(':')).map((segment) => segment.text));
    expect(changed).toEqual(['10:00', '11:00']);
    for (const line of [...cutView.lines, ...expanded.lines]) expect(Array.from(text(line)).length).toBeLessThanOrEqual(120);
  });
});
