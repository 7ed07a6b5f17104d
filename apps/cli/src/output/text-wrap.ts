/**
 * Word-wraps plain text (no colour codes: colour is applied to the lines after wrapping) to
 * `width` columns, every line starting with `indent`; a word longer than a line is cut, after a
 * `,` or `/` when one is in its second half (a path or a file list breaks between names).
 * Whitespace runs, newlines included, count as one space.
 *
 * @example
 * wrapText('content_signals: forbidden "reservation" found', 24, '    ')
 * // → ['    content_signals:', '    forbidden', '    "reservation" found']
 */
export function wrapText(text: string, width: number, indent = ''): string[] {
  return wrapWithPrefixes(text, width, indent, indent);
}

/** Like `wrapText`, but the first line starts at the margin and the lines after it are indented. */
export function hangingWrap(text: string, width: number, indent = '  '): string[] {
  return wrapWithPrefixes(text, width, '', indent);
}

/** Like `wrapText`, the first line starting with `firstPrefix` and the lines after it with `prefix`. */
export function wrapWithPrefixes(text: string, width: number, firstPrefix: string, prefix: string): string[] {
  const lines: string[] = [];
  let current = '';
  const room = (): number => Math.max(20, width - (lines.length === 0 ? firstPrefix : prefix).length);
  const push = (line: string): void => {
    lines.push((lines.length === 0 ? firstPrefix : prefix) + line);
  };
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ')) {
    if (word === '') continue;
    if (current && current.length + 1 + word.length > room()) {
      push(current);
      current = '';
    }
    current = current ? `${current} ${word}` : word;
    while (current.length > room()) {
      const cut = cutPoint(current, room());
      push(current.slice(0, cut));
      current = current.slice(cut);
    }
  }
  if (current || lines.length === 0) push(current);
  return lines;
}

/**
 * Where to cut a word longer than `room`: just after its last `,` or `/` that leaves at least half
 * the line filled, so that `…/{report.json,junit.xml,summary.md,report.html}` never breaks
 * inside a name; else at `room`.
 */
function cutPoint(word: string, room: number): number {
  const head = word.slice(0, room);
  const after = Math.max(head.lastIndexOf(','), head.lastIndexOf('/')) + 1;
  return after >= room / 2 ? after : room;
}

/** Wraps each line of a multi-line text (a blank line stays blank); continuation lines get `indent`. */
export function wrapLines(text: string, width: number, indent = '  '): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : hangingWrap(line, width, indent).join('\n')))
    .join('\n');
}

/** One line cut to `width` columns with `…` when it is longer. */
export function fitLine(line: string, width: number): string {
  return line.length > width ? `${line.slice(0, Math.max(1, width - 1))}…` : line;
}
