import { Box, Text } from 'ink';
import { shortenCaseId } from '@parley/core';
import type { Colour } from '../theme.js';

/** A run of text with one style. Colours come from the theme (undefined under NO_COLOR). */
export interface Segment {
  text: string;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
  colour?: Colour | undefined;
}

/** One screen line, already cut to the width it is shown at. */
export type StyledLine = readonly Segment[];

/** A window of `rows` lines starting at `offset`: the scrollable part of a screen. */
export function StyledLines({ lines, offset = 0, rows }: { lines: readonly StyledLine[]; offset?: number; rows: number }) {
  const shown = lines.slice(offset, offset + Math.max(0, rows));
  return (
    <Box flexDirection="column">
      {shown.map((line, index) => (
        <Text key={offset + index} wrap="truncate-end">
          {line.length === 0
            ? ' '
            : line.map((segment, position) => (
                <Text key={position} bold={segment.bold ?? false} dimColor={segment.dim ?? false} inverse={segment.inverse ?? false} color={segment.colour}>
                  {segment.text}
                </Text>
              ))}
        </Text>
      ))}
    </Box>
  );
}

/** The largest offset that still fills the window (0 when everything fits). */
export function maxOffset(lineCount: number, rows: number): number {
  return Math.max(0, lineCount - Math.max(1, rows));
}

/**
 * A case id padded or cut to `width` characters; a cut keeps a variant's values or a compared
 * agent (shortenCaseId).
 *
 * @example fitCaseId('book_massage[lang=zu,persona=rushed]', 26) // 'boo…ang=zu,persona=rushed]'
 */
export function fitCaseId(id: string, width: number): string {
  return fit(shortenCaseId(id, width), width);
}

/** Pads or cuts `text` to exactly `width` characters (an ellipsis marks a cut). */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const characters = Array.from(text);
  if (characters.length > width) return width <= 1 ? characters.slice(0, width).join('') : `${characters.slice(0, width - 1).join('')}…`;
  const padding = ' '.repeat(width - characters.length);
  return align === 'left' ? text + padding : padding + text;
}
