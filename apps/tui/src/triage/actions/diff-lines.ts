import type { ConversationDiff, ConversationDiffLine } from '@parley/providers';
import type { Theme } from '../../theme.js';
import type { Segment, StyledLine } from '../styled-lines.js';

/**
 * The diff as screen lines of at most `width` characters: each diff line wrapped (never cut, so a
 * change past the 80th column is on screen), its continuation lines under the same `-`/`+` mark,
 * and within a changed pair the words that differ in inverse video (seen without colour too).
 */
export function diffStyledLines(diff: ConversationDiff, width: number, theme: Theme): StyledLine[] {
  return diff.lines.flatMap((line) => {
    const mark = line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  ';
    const colour = line.kind === 'added' ? theme.paint('green') : line.kind === 'removed' ? theme.paint('red') : undefined;
    const dim = line.kind === 'same';
    const segments = segmentsOf(line, colour, dim);
    return wrapSegments(segments, Math.max(1, width - mark.length)).map((row): StyledLine => [{ text: mark, colour, dim }, ...row]);
  });
}

function segmentsOf(line: ConversationDiffLine, colour: Segment['colour'], dim: boolean): Segment[] {
  if (!line.parts) return [{ text: line.text, colour, dim }];
  return line.parts.map((part) => (part.changed ? { text: part.text, colour, inverse: true, bold: true } : { text: part.text, colour, dim }));
}

/**
 * Breaks styled text into rows of at most `width` characters, after the last space that fits when
 * there is one (a word longer than the row is cut inside). Styles carry over the break.
 */
export function wrapSegments(segments: readonly Segment[], width: number): Segment[][] {
  const characters = segments.flatMap((segment, index) => Array.from(segment.text).map((character) => ({ character, index })));
  const rows: Segment[][] = [];
  let start = 0;
  while (start < characters.length || rows.length === 0) {
    let end = Math.min(characters.length, start + width);
    if (end < characters.length) {
      const space = characters.slice(start, end).map((entry) => entry.character).lastIndexOf(' ');
      if (space > 0) end = start + space + 1;
    }
    const row: Segment[] = [];
    let previous = -1;
    for (const { character, index } of characters.slice(start, end)) {
      const last = row[row.length - 1];
      if (last && previous === index) last.text += character;
      else row.push({ ...segments[index]!, text: character });
      previous = index;
    }
    rows.push(row);
    start = end;
    if (characters.length === 0) break;
  }
  return rows;
}
