import type { MetricResult, ScenarioResult, Status } from '@parley/core';
import Table from 'cli-table3';
import { counted } from './counted.js';
import { formatDuration, formatStartTime, formatUsd, missingValue, oneLine, runSelection } from '@parley/reports';
import type { RunRow } from '@parley/store';

/**
 * Plain-text renderings of the run history for `parley runs list` and `parley runs show`. They
 * return strings without colour codes: the CLI decides about colour (and `NO_COLOR`).
 */

/** Borderless columns separated by two spaces, like `docker ps`: easy to read and to grep. */
const borderless: Partial<Record<Table.CharName, string>> = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: '  ',
};

function plainTable(head?: string[]): Table.Table {
  return new Table({
    ...(head === undefined ? {} : { head }),
    chars: borderless,
    // cli-table3 colours the head red and the border grey unless told otherwise.
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
}

/** cli-table3 pads every line to the table's width; trailing spaces only get in the way of diffs. */
function render(table: Table.Table): string {
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

export interface RunListOptions {
  /**
   * Columns to fit into (a terminal's width). When the whole table is wider, the columns a person
   * misses least go first: SCENARIOS (the counts hold it), DURATION, MODE, STARTED; then long
   * suite names are cut (to 12 characters at least), then COST goes. Without a width every column
   * is shown, for logs and pipes.
   */
  width?: number;
}

interface RunListColumn {
  head: string;
  /** The narrower head used once the table had to give up columns. */
  shortHead?: string;
  cell(run: RunRow): string;
}

const runListColumns = {
  run: { head: 'RUN', cell: (run) => run.id },
  suite: { head: 'SUITE', cell: (run) => run.suite },
  mode: { head: 'MODE', cell: (run) => run.mode },
  status: { head: 'STATUS', cell: runStatus },
  // A run of part of the suite (a --scenario, --tag … selection) is marked: its counts are not the suite's.
  scenarios: { head: 'SCENARIOS', cell: (run) => `${run.scenario_count}${runSelection(run.options) ? ' (partial)' : ''}` },
  counts: {
    head: 'PASS/FAIL/ERROR',
    shortHead: 'P/F/E',
    cell: (run) => (run.counts === undefined ? missingValue : `${run.counts.pass}/${run.counts.fail}/${run.counts.error}`),
  },
  cost: { head: 'COST', cell: (run) => formatUsd(run.cost?.usd) },
  started: { head: 'STARTED', cell: (run) => formatStartTime(run.started_at) },
  duration: { head: 'DURATION', cell: (run) => formatDuration(run.duration_ms) },
} satisfies Record<string, RunListColumn>;

type RunListColumnName = keyof typeof runListColumns;

const runListOrder: readonly RunListColumnName[] = ['run', 'suite', 'mode', 'status', 'scenarios', 'counts', 'cost', 'started', 'duration'];
/** Given up first to last when the table is wider than the terminal. */
const runListDropOrder: readonly RunListColumnName[] = ['scenarios', 'duration', 'mode', 'started', 'cost'];
/** A suite name is never cut shorter than this. */
const shortestSuite = 12;

/** `parley runs list`: one line per run, in the order given (the store lists newest first). */
export function formatRunList(runs: readonly RunRow[], options: RunListOptions = {}): string {
  if (runs.length === 0) return 'No runs stored yet.';
  const { width } = options;
  let shown = [...runListOrder];
  let text = renderRunList(runs, shown, false);
  if (width === undefined) return text;
  for (const column of runListDropOrder) {
    if (widestLine(text) <= width) return text;
    // Before COST goes, a long suite name gives up its tail.
    if (column === 'cost') {
      const cut = fitSuites(runs, shown, text, width);
      if (widestLine(cut) <= width) return cut;
    }
    shown = shown.filter((name) => name !== column);
    text = renderRunList(runs, shown, true);
  }
  return widestLine(text) <= width ? text : fitSuites(runs, shown, text, width);
}

/** The list with suite names cut by what it is too wide (never below `shortestSuite` characters). */
function fitSuites(runs: readonly RunRow[], shown: readonly RunListColumnName[], text: string, width: number): string {
  const longestSuite = Math.max(...runs.map((run) => Array.from(run.suite).length));
  const suiteLength = Math.max(shortestSuite, longestSuite - (widestLine(text) - width));
  return suiteLength >= longestSuite ? text : renderRunList(runs, shown, true, suiteLength);
}

function renderRunList(runs: readonly RunRow[], shown: readonly RunListColumnName[], short: boolean, suiteLength?: number): string {
  const columns = shown.map((name) => runListColumns[name] as RunListColumn);
  const table = plainTable(columns.map((column) => (short && column.shortHead ? column.shortHead : column.head)));
  for (const run of runs) {
    const shownRun = suiteLength === undefined ? run : { ...run, suite: oneLine(run.suite, suiteLength) };
    table.push(columns.map((column) => column.cell(shownRun)));
  }
  return render(table);
}

function widestLine(text: string): number {
  return Math.max(...text.split('\n').map((line) => Array.from(line).length));
}

export interface RunDetailOptions {
  /** Reasons longer than this are cut (one line per scenario). Default 60. */
  reasonLength?: number;
  /**
   * Columns to fit into (a terminal's width). When the scenario table is wider, reasons are cut
   * to what fits and each scenario's metric scores go on the lines under it, wrapped.
   */
  width?: number;
  /** How the person runs Parley (`parley` or `npx parley`), for the resume command of an unfinished run. Default `parley`. */
  parley?: string;
}

/** `parley runs show ID`: the run's header, then one line per scenario with its metric scores. */
export function formatRunDetail(run: RunRow, results: readonly ScenarioResult[], options: RunDetailOptions = {}): string {
  const reasonLength = options.reasonLength ?? 60;
  const sections = [render(runHeader(run, options.width, options.parley))];
  if (results.length === 0) {
    sections.push('No scenario results stored.');
  } else {
    const wide = scenarioTable(results, reasonLength, true);
    const { width } = options;
    sections.push(width === undefined || widestLine(wide) <= width ? wide : narrowScenarioTable(results, reasonLength, width));
  }
  return sections.join('\n\n');
}

function scenarioStatus(result: ScenarioResult): string {
  return result.gate === 'advisory' ? `${result.status} (advisory)` : result.status;
}

function scenarioTable(results: readonly ScenarioResult[], reasonLength: number, withMetrics: boolean): string {
  const table = plainTable(['SCENARIO', 'STATUS', 'REASON', ...(withMetrics ? ['METRICS'] : [])]);
  for (const result of results) {
    const row = [result.scenario_id, scenarioStatus(result), oneLine(result.reason, reasonLength)];
    table.push(withMetrics ? [...row, result.metrics.map(formatMetricScore).join(', ')] : row);
  }
  return render(table);
}

/** The shortest a reason is cut to, however narrow the terminal. */
const shortestReason = 20;
const metricsIndent = '  ';

/** Scenario, status and reason on one line each (reasons cut to fit), the metric scores wrapped under it. */
function narrowScenarioTable(results: readonly ScenarioResult[], reasonLength: number, width: number): string {
  const columnWidth = (cells: string[]): number => Math.max(...cells.map((cell) => Array.from(cell).length));
  const leftWidth = columnWidth(['SCENARIO', ...results.map((result) => result.scenario_id)]) + 2 + columnWidth(['STATUS', ...results.map(scenarioStatus)]) + 2;
  const fitted = Math.max(shortestReason, Math.min(reasonLength, width - leftWidth));
  const [head = '', ...rows] = scenarioTable(results, fitted, false).split('\n');
  const lines = [head];
  rows.forEach((row, index) => {
    lines.push(row);
    const scores = results[index]?.metrics.map(formatMetricScore) ?? [];
    lines.push(...wrapList(scores, width - metricsIndent.length).map((line) => `${metricsIndent}${line}`));
  });
  return lines.join('\n');
}

/** `a, b, c` wrapped at the commas into lines of at most `width` characters (a longer item stands alone). */
function wrapList(items: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const [index, item] of items.entries()) {
    const piece = index < items.length - 1 ? `${item},` : item;
    const candidate = line === '' ? piece : `${line} ${piece}`;
    if (line !== '' && Array.from(candidate).length > width) {
      lines.push(line);
      line = piece;
    } else {
      line = candidate;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

function runHeader(run: RunRow, width?: number, parley = 'parley'): Table.Table {
  const table = plainTable();
  const rows: Array<[string, string]> = [
    ['Run', run.id],
    ['Suite', run.suite],
    ['Mode', run.mode],
    ...(runSelection(run.options) ? ([['Selection', `${runSelection(run.options)} (a partial run: its counts are of these scenarios only)`]] as Array<[string, string]>) : []),
    ['Status', run.exit_code === undefined ? runStatus(run) : `${runStatus(run)} (exit ${run.exit_code})${ranOfPlanned(run)}`],
    ...(run.status === 'interrupted' || !run.finished ? ([['Resume', `${parley} run --resume ${run.id}`]] as Array<[string, string]>) : []),
    ['Started', run.started_at],
    ['Finished', run.finished_at ?? missingValue],
    ['Duration', formatDuration(run.duration_ms)],
    ['Scenarios', `${run.scenario_count}${run.counts === undefined ? '' : ` (${formatCounts(run.counts)})`}`],
    ['Cost', formatRunCost(run)],
    ['Git', run.git_sha ?? missingValue],
    ['Config', fitFingerprint(run.config_fingerprint ?? missingValue, width)],
    ['Parley', run.parley_version],
    ['Output', run.out_dir],
  ];
  for (const [label, value] of rows) table.push([label, value]);
  return table;
}

/** Label column of the header: `Scenarios` and two spaces. */
const headerLabelWidth = 11;

/** `sha256:74b355981f60…` when the whole fingerprint would not fit (it is whole in logs and JSON). */
function fitFingerprint(fingerprint: string, width: number | undefined): string {
  if (width === undefined || headerLabelWidth + fingerprint.length <= width) return fingerprint;
  return fingerprint.replace(/^(\w+:[0-9a-f]{12})[0-9a-f]+$/, '$1…');
}

/**
 * `interrupted` for a run Ctrl-C or SIGTERM stopped (it wrote its reports); `unfinished` for one
 * still going or killed outright (SIGKILL, a crash): the store cannot tell those two apart.
 */
function runStatus(run: RunRow): string {
  return run.status ?? 'unfinished';
}

/** ` · 2 of 6 ran` for an interrupted run that knows how many scenarios it was to run. */
function ranOfPlanned(run: RunRow): string {
  const planned = run.options.planned;
  return run.status === 'interrupted' && typeof planned === 'number' ? ` · ${run.scenario_count} of ${planned} ran` : '';
}

const statusOrder: readonly Status[] = ['pass', 'fail', 'error', 'warn', 'flaky', 'skipped'];

/** `pass 10, fail 1, error 1`: statuses that occurred, in a fixed order. */
function formatCounts(counts: Record<Status, number>): string {
  const present = statusOrder.filter((status) => (counts[status] ?? 0) > 0);
  return present.length === 0 ? 'none' : present.map((status) => `${status} ${counts[status]}`).join(', ');
}

function formatRunCost(run: RunRow): string {
  if (run.cost === undefined) return missingValue;
  const { input_tokens, output_tokens, calls } = run.cost;
  return `${formatUsd(run.cost.usd)} (${input_tokens} input + ${output_tokens} output tokens, ${counted(calls, 'call')})`;
}

/** `tool_correctness 0.83`, `content_signals pass`, `conversation_judge 0.62 ✗`, `fluency_sw error`. */
export function formatMetricScore(metric: MetricResult): string {
  if (metric.error === true) return `${metric.metric} error`;
  if (metric.score === null) return `${metric.metric} ${metric.passed ? 'pass' : 'fail'}`;
  return `${metric.metric} ${metric.score.toFixed(2)}${metric.passed ? '' : ' ✗'}`;
}
