import type { ConversationDiff, ConversationDiffLine } from '@parley/providers';
import type { Theme } from '../../theme.js';
import { fit, type Segment, type StyledLine } from '../styled-lines.js';
import { wrapSegments } from './diff-lines.js';

/** Terminals at least this wide show the diff side by side; narrower ones the unified, wrapped diff. */
export const SIDE_BY_SIDE_COLUMNS = 120;

/** One row of the side-by-side diff: the recording's line on the left, the new one on the right. */
export interface DiffPair {
  left?: ConversationDiffLine;
  right?: ConversationDiffLine;
}

/**
 * The diff's lines as pairs: a line both conversations have on both sides; a run of removed
 * lines beside the run of added lines that replaced it, in order (the diff pairs the changed words
 * of such lines already); what has no counterpart alone on its side.
 */
export function diffPairs(diff: ConversationDiff): DiffPair[] {
  const pairs: DiffPair[] = [];
  let removed: ConversationDiffLine[] = [];
  let added: ConversationDiffLine[] = [];
  const flush = () => {
    for (let index = 0; index < Math.max(removed.length, added.length); index += 1) {
      const left = removed[index];
      const right = added[index];
      pairs.push({ ...(left ? { left } : {}), ...(right ? { right } : {}) });
    }
    removed = [];
    added = [];
  };
  for (const line of diff.lines) {
    if (line.kind === 'removed') {
      // A removed line after added ones starts a new change.
      if (added.length > 0) flush();
      removed.push(line);
    } else if (line.kind === 'added') added.push(line);
    else {
      flush();
      pairs.push({ left: line, right: line });
    }
  }
  flush();
  return pairs;
}

const GUTTER = 2;
const SEPARATOR = ' │ ';

/**
 * The pairs as screen lines `width` wide: `-`/`+` marks, the changed words in inverse video.
 * Each pair is one line cut at its column's width (`…` marks a cut), except the selected pair,
 * which is shown whole, wrapped on as many lines as it needs, and marked `>` in the gutter.
 * `starts[i]` is the screen line where pair `i` begins.
 */
export function sideBySideLines(pairs: readonly DiffPair[], selected: number, width: number, theme: Theme): { lines: StyledLine[]; starts: number[] } {
  const column = Math.max(10, Math.floor((width - GUTTER - SEPARATOR.length) / 2));
  const lines: StyledLine[] = [];
  const starts: number[] = [];
  pairs.forEach((pair, index) => {
    starts.push(lines.length);
    const isSelected = index === selected;
    const left = cellRows(pair.left, column, isSelected, theme);
    const right = cellRows(pair.right, column, isSelected, theme);
    for (let row = 0; row < Math.max(left.length, right.length); row += 1) {
      const gutter: Segment = { text: isSelected && row === 0 ? '> ' : '  ', bold: true, inverse: isSelected && row === 0 };
      lines.push([gutter, ...(left[row] ?? [{ text: ' '.repeat(column) }]), { text: SEPARATOR, dim: true }, ...(right[row] ?? [])]);
    }
  });
  return { lines, starts };
}

/** One side of a pair: a single cut row, or (selected) every wrapped row, each padded to `column`. */
function cellRows(line: ConversationDiffLine | undefined, column: number, whole: boolean, theme: Theme): Segment[][] {
  if (line === undefined) return [[{ text: ' '.repeat(column) }]];
  const mark = line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  ';
  const colour = line.kind === 'added' ? theme.paint('green') : line.kind === 'removed' ? theme.paint('red') : undefined;
  const dim = line.kind === 'same';
  const segments: Segment[] = line.parts
    ? line.parts.map((part) => (part.changed ? { text: part.text, colour, inverse: true, bold: true } : { text: part.text, colour, dim }))
    : [{ text: line.text, colour, dim }];
  const textWidth = column - mark.length;
  const rows = whole ? wrapSegments(segments, textWidth) : [cut(segments, textWidth)];
  return rows.map((row, index) => [{ text: index === 0 ? mark : '  ', colour, dim }, ...pad(row, textWidth)]);
}

/** The segments cut to `width` characters, `…` in the last cell when something was left out. */
function cut(segments: readonly Segment[], width: number): Segment[] {
  const total = segments.reduce((sum, segment) => sum + Array.from(segment.text).length, 0);
  if (total <= width) return [...segments];
  const out: Segment[] = [];
  let room = width - 1;
  for (const segment of segments) {
    if (room <= 0) break;
    const characters = Array.from(segment.text);
    out.push({ ...segment, text: characters.slice(0, room).join('') });
    room -= Math.min(room, characters.length);
  }
  out.push({ text: '…', dim: true });
  return out;
}

function pad(row: readonly Segment[], width: number): Segment[] {
  const used = row.reduce((sum, segment) => sum + Array.from(segment.text).length, 0);
  return used >= width ? [...row] : [...row, { text: fit('', width - used) }];
}
