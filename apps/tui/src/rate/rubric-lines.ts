import { wrapText } from './wrap-text.js';

/** One screen line of the rubric; headings are shown bold. */
export interface RubricLine {
  text: string;
  heading: boolean;
}

const HEADING = /^#{1,6}\s/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;

/**
 * The rubric's markdown as plain lines `columns` wide: paragraphs and list items re-flowed to the
 * width (the file is wrapped at its own width), emphasis markers dropped, list items with a
 * hanging indent. `startOf` gives where a line of the file is shown, so the view can open at an
 * axis's section.
 */
export function rubricLines(text: string, columns: number): { lines: RubricLine[]; startOf: (sourceLine: number) => number } {
  const lines: RubricLine[] = [];
  const starts: number[] = [];
  let block: string[] = [];
  let blockIsHeading = false;
  const flush = () => {
    if (block.length === 0) return;
    const joined = plain(block.map((line, index) => (index === 0 ? line : line.trim())).join(' '));
    const hanging = LIST_ITEM.exec(joined)?.[0].length ?? 0;
    for (const line of wrapText(joined, columns, hanging)) lines.push({ text: line, heading: blockIsHeading });
    block = [];
  };
  for (const source of text.split(/\r?\n/)) {
    const blank = source.trim() === '';
    const heading = HEADING.test(source);
    if (blank || heading || LIST_ITEM.test(source) || blockIsHeading) flush();
    starts.push(lines.length);
    if (blank) {
      lines.push({ text: '', heading: false });
      continue;
    }
    if (block.length === 0) blockIsHeading = heading;
    block.push(heading ? source.replace(/^#{1,6}\s+/, '') : source);
  }
  flush();
  return { lines, startOf: (sourceLine) => starts[sourceLine] ?? 0 };
}

function plain(text: string): string {
  return text.replace(/\*\*([^*]+)\*\*/g, '$1').replace(/\*([^*\s][^*]*?)\*/g, '$1').replace(/`([^`]+)`/g, '$1');
}
