import type { Verdict } from './targets.js';

/** One measured workload, as printed and as written to `--json`. */
export interface ResultRow {
  workload: string;
  /** Scenarios (Parley) or test cases (promptfoo); null for start-up rows. */
  count: number | null;
  /** User turns per scenario or test case; null for start-up rows. */
  turns: number | null;
  /** Median of the runs. */
  wallSeconds: number;
  /** Every run's wall time, in run order: shows the spread a median hides. */
  wallSecondsByRun: number[];
  peakRssMiB: number | null;
  /** Median CPU time (user + system) of the measured process; null when not reported. */
  cpuSeconds: number | null;
  target: string;
  verdict: Verdict;
}

const HEADERS = ['workload', 'N', 'turns', 'wall (s)', 'peak RSS (MiB)', 'cpu (s)', 'target', 'verdict'];
/** Columns holding numbers are right-aligned. */
const RIGHT_ALIGNED = new Set([1, 2, 3, 4, 5]);

/**
 * The results as a plain-text table. Colour marks the verdict only when `color` is true (the
 * caller decides from NO_COLOR and whether stdout is a terminal).
 */
export function renderResultsTable(rows: readonly ResultRow[], color: boolean): string {
  const cells = rows.map((row) => [
    row.workload,
    row.count === null ? '-' : row.count.toLocaleString('en-US'),
    row.turns === null ? '-' : String(row.turns),
    seconds(row.wallSeconds),
    row.peakRssMiB === null ? '?' : row.peakRssMiB.toFixed(1),
    row.cpuSeconds === null ? '?' : seconds(row.cpuSeconds),
    row.target,
    row.verdict,
  ]);
  const widths = HEADERS.map((header, column) => Math.max(header.length, ...cells.map((line) => (line[column] ?? '').length)));
  const format = (line: string[], paint: boolean): string =>
    line
      .map((cell, column) => {
        const padding = ' '.repeat(Math.max(0, (widths[column] ?? 0) - cell.length));
        const text = paint && column === HEADERS.length - 1 ? colourVerdict(cell) : cell;
        return RIGHT_ALIGNED.has(column) ? padding + text : text + padding;
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [format(HEADERS, false), rule, ...cells.map((line) => format(line, color))].join('\n');
}

function seconds(value: number): string {
  return value.toFixed(value < 10 ? 3 : 2);
}

function colourVerdict(verdict: string): string {
  if (verdict === 'ok') return `\u001b[32m${verdict}\u001b[39m`;
  if (verdict === 'over') return `\u001b[31m${verdict}\u001b[39m`;
  return verdict;
}
