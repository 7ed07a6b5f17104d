import { formatDelta, formatScore } from '@parley/gate';
import type { Comparison, MetricDelta, ScoreSummary } from './compare-runs.js';

/** How many unchanged metric rows are listed before the rest are summarised in one line. */
const UNCHANGED_SHOWN = 10;
/** Deltas smaller than this are "unchanged" for the listing (never for the statistics). */
const UNCHANGED = 1e-9;

/**
 * `parley compare` as text for a terminal or a CI log: the runs, status changes (worse first),
 * the metric deltas with regressions first, and per metric the test across scenarios. Plain
 * columns, no colour: it is pasted into PR comments as often as it is read in a terminal.
 */
export function renderComparison(comparison: Comparison): string {
  const { before, after } = comparison;
  const lines = [
    `compare ${runHeading(before)} → ${runHeading(after)} · suite ${comparison.suite}`,
    '',
  ];

  if (comparison.status_changes.length > 0) {
    lines.push(`Status changes (${comparison.status_changes.length}):`);
    const width = Math.max(...comparison.status_changes.map((change) => change.scenario_id.length));
    for (const change of comparison.status_changes) {
      lines.push(`  ${change.scenario_id.padEnd(width)}  ${change.before} → ${change.after}${change.worse ? '  (worse)' : ''}`);
    }
  } else {
    lines.push('Status changes: none.');
  }
  lines.push('');

  const changed = comparison.deltas.filter((delta) => Math.abs(delta.delta) > UNCHANGED);
  const unchanged = comparison.deltas.length - changed.length;
  if (comparison.deltas.length === 0) {
    lines.push('Metric deltas: no scored metric in both runs.');
  } else {
    lines.push(`Metric deltas, regressions first (${changed.length} changed, ${unchanged} unchanged):`);
    const shown = [...changed, ...comparison.deltas.filter((delta) => Math.abs(delta.delta) <= UNCHANGED).slice(0, Math.max(0, UNCHANGED_SHOWN - changed.length))];
    lines.push(...deltaTable(shown));
    const hidden = comparison.deltas.length - shown.length;
    if (hidden > 0) lines.push(`  … and ${hidden} more unchanged`);
  }
  lines.push('');

  if (comparison.tests === null) {
    lines.push(`Across scenarios: ${comparison.statistics_note}.`);
  } else {
    lines.push(`Across scenarios (${comparison.statistics_note}):`);
    for (const test of comparison.tests) {
      const interval = `[${formatDelta(test.interval.low)}, ${formatDelta(test.interval.high)}]`;
      const p = test.test.p_value < 0.0001 ? '< 0.0001' : `= ${formatScore(test.test.p_value)}`;
      const t = test.t_statistic === null ? '' : `, t = ${test.t_statistic.toFixed(2)}`;
      lines.push(
        `  ${test.metric}: ${test.pairs} ${test.pairs === 1 ? 'pair' : 'pairs'}, mean delta ${formatDelta(test.mean_delta)} ${interval}, p ${p} (${test.test.method}${t}) → ${test.verdict}`,
      );
    }
    if (comparison.tests.length === 0) lines.push('  no scored metric in both runs');
  }
  if (comparison.only_before.length > 0) lines.push('', `Only in ${before.label}: ${comparison.only_before.join(', ')}`);
  if (comparison.only_after.length > 0) lines.push('', `Only in ${after.label}: ${comparison.only_after.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

function deltaTable(deltas: readonly MetricDelta[]): string[] {
  const rows = deltas.map((delta) => [delta.scenario_id, delta.metric, summary(delta.before), summary(delta.after), formatDelta(delta.delta)]);
  const header = ['scenario', 'metric', 'before', 'after', 'delta'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]): string => `  ${cells.map((cell, column) => (column === cells.length - 1 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ')}`;
  return [line(header), ...rows.map(line)];
}

function summary(score: ScoreSummary): string {
  if (score.n === 1) return formatScore(score.mean);
  return `${formatScore(score.mean)} ±${formatScore(score.sd ?? 0)} (n=${score.n})`;
}

/** `label (run id, N repeats)`; the id only when the label is not already it (a full id given). */
function runHeading(side: Comparison['before']): string {
  const notes = [...(side.label !== side.run_id ? [side.run_id] : []), ...(side.repeat > 1 ? [`${side.repeat} repeats`] : [])];
  return notes.length > 0 ? `${side.label} (${notes.join(', ')})` : side.label;
}
