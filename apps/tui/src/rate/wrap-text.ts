/**
 * Breaks `text` into lines of at most `width` characters, at spaces where it can and inside a
 * word only when the word alone is too long. Line breaks in the text are kept; continuation lines
 * start with `hangingIndent` spaces (list items of the rubric).
 */
export function wrapText(text: string, width: number, hangingIndent = 0): string[] {
  const usable = Math.max(1, width);
  const indent = ' '.repeat(Math.min(hangingIndent, Math.max(0, usable - 1)));
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    let first = true;
    const push = () => {
      lines.push(line);
      line = indent;
      first = false;
    };
    const room = () => usable - length(line);
    for (const word of paragraph.split(' ')) {
      const separator = line === '' || (line === indent && !first) ? '' : ' ';
      if (length(word) + separator.length <= room()) {
        line += separator + word;
        continue;
      }
      if (line.trim() !== '') push();
      let rest = Array.from(word);
      while (rest.length > room()) {
        const take = Math.max(1, room());
        line += rest.slice(0, take).join('');
        rest = rest.slice(take);
        push();
      }
      line += rest.join('');
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

function length(text: string): number {
  return Array.from(text).length;
}
