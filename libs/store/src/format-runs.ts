import type { MetricResult, ScenarioResult, Status } from '@parley/core';
import Table from 'cli-table3';
import { formatDuration, formatStartTime, formatUsd, missingValue, oneLine } from './format-values.js';
import type { RunRow } from './run-rows.js';

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

/** `parley runs list`: one line per run, in the order given (the store lists newest first). */
export function formatRunList(runs: readonly RunRow[]): string {
  if (runs.length === 0) return 'No runs stored yet.';
  const table = plainTable(['RUN', 'SUITE', 'MODE', 'STATUS', 'SCENARIOS', 'PASS/FAIL/ERROR', 'COST', 'STARTED', 'DURATION']);
  for (const run of runs) {
    table.push([
      run.id,
      run.suite,
      run.mode,
      runStatus(run),
      String(run.scenario_count),
      run.counts === undefined ? missingValue : `${run.counts.pass}/${run.counts.fail}/${run.counts.error}`,
      formatUsd(run.cost?.usd),
      formatStartTime(run.started_at),
      formatDuration(run.duration_ms),
    ]);
  }
  return render(table);
}

export interface RunDetailOptions {
  /** Reasons longer than this are cut (one line per scenario). Default 60. */
  reasonLength?: number;
}

/** `parley runs show ID`: the run's header, then one line per scenario with its metric scores. */
export function formatRunDetail(run: RunRow, results: readonly ScenarioResult[], options: RunDetailOptions = {}): string {
  const reasonLength = options.reasonLength ?? 60;
  const sections = [render(runHeader(run))];
  if (results.length === 0) {
    sections.push('No scenario results stored.');
  } else {
    const table = plainTable(['SCENARIO', 'STATUS', 'REASON', 'METRICS']);
    for (const result of results) {
      table.push([
        result.scenario_id,
        result.gate === 'advisory' ? `${result.status} (advisory)` : result.status,
        oneLine(result.reason, reasonLength),
        result.metrics.map(formatMetricScore).join(', '),
      ]);
    }
    sections.push(render(table));
  }
  return sections.join('\n\n');
}

function runHeader(run: RunRow): Table.Table {
  const table = plainTable();
  const rows: Array<[string, string]> = [
    ['Run', run.id],
    ['Suite', run.suite],
    ['Mode', run.mode],
    ['Status', run.exit_code === undefined ? runStatus(run) : `${runStatus(run)} (exit ${run.exit_code})${ranOfPlanned(run)}`],
    ...(run.status === 'interrupted' || !run.finished ? ([['Resume', `parley run --resume ${run.id}`]] as Array<[string, string]>) : []),
    ['Started', run.started_at],
    ['Finished', run.finished_at ?? missingValue],
    ['Duration', formatDuration(run.duration_ms)],
    ['Scenarios', `${run.scenario_count}${run.counts === undefined ? '' : ` (${formatCounts(run.counts)})`}`],
    ['Cost', formatRunCost(run)],
    ['Git', run.git_sha ?? missingValue],
    ['Config', run.config_fingerprint ?? missingValue],
    ['Parley', run.parley_version],
    ['Output', run.out_dir],
  ];
  for (const [label, value] of rows) table.push([label, value]);
  return table;
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
  return `${formatUsd(run.cost.usd)} (${input_tokens} input + ${output_tokens} output tokens, ${calls} calls)`;
}

/** `tool_correctness 0.83`, `content_signals pass`, `conversation_judge 0.62 ✗`, `fluency_sw error`. */
export function formatMetricScore(metric: MetricResult): string {
  if (metric.error === true) return `${metric.metric} error`;
  if (metric.score === null) return `${metric.metric} ${metric.passed ? 'pass' : 'fail'}`;
  return `${metric.metric} ${metric.score.toFixed(2)}${metric.passed ? '' : ' ✗'}`;
}
