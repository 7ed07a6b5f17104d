import { terminalSafe, type ScenarioResult } from '@parley/core';
import { baselineMetricRows, formatDelta, formatScore, metricRowsInTriageOrder, type BaselineMetricRow } from '@parley/gate';
import { wrapText } from '../rate/wrap-text.js';
import type { Theme } from '../theme.js';
import { fit, type StyledLine } from './styled-lines.js';

const COLUMNS = { metric: 24, score: 6, baseline: 6, delta: 6, threshold: 6, drop: 5, verdict: 7 } as const;
const REASON_INDENT = '    ';

/**
 * The metric table against the baseline: one row per metric (failures first, see
 * `metricRowsInTriageOrder`) with score, baseline, delta, threshold, allowed drop and verdict, and
 * the metric's reason wrapped under it. An `error` result's cause comes first.
 */
export function metricTableLines(result: ScenarioResult, width: number, theme: Theme): StyledLine[] {
  const lines: StyledLine[] = [];
  if (result.error !== undefined) {
    lines.push([{ text: `error ${result.error.kind}`, bold: true, colour: theme.status('error') }]);
    for (const line of wrapText(result.error.message, Math.max(10, width - 2))) lines.push([{ text: `  ${line}` }]);
    if (result.error.details) for (const line of wrapText(result.error.details, Math.max(10, width - 2))) lines.push([{ text: `  ${line}`, dim: true }]);
    lines.push([]);
  }
  if (result.metrics.length === 0) {
    lines.push([{ text: 'No metric was evaluated.', dim: true }]);
    return lines;
  }
  lines.push([
    {
      text: [
        fit('metric', COLUMNS.metric),
        fit('score', COLUMNS.score, 'right'),
        fit('base', COLUMNS.baseline, 'right'),
        fit('delta', COLUMNS.delta, 'right'),
        fit('thresh', COLUMNS.threshold, 'right'),
        fit('drop', COLUMNS.drop, 'right'),
        ' verdict',
      ].join(' '),
      bold: true,
    },
  ]);
  for (const row of metricRowsInTriageOrder(baselineMetricRows(result.metrics))) {
    lines.push(rowLine(row, theme));
    const troubled = row.verdict !== 'pass';
    for (const line of wrapText(terminalSafe(row.reason), Math.max(10, width - REASON_INDENT.length))) {
      lines.push([{ text: REASON_INDENT + line, dim: !troubled }]);
    }
  }
  return lines;
}

function rowLine(row: BaselineMetricRow, theme: Theme): StyledLine {
  const number = (value: number | null) => (value === null ? '-' : formatScore(value));
  const baseline = row.baseline_missing ? 'none' : number(row.baseline);
  const cells = [
    fit(row.metric, COLUMNS.metric),
    fit(number(row.score), COLUMNS.score, 'right'),
    fit(baseline, COLUMNS.baseline, 'right'),
    fit(row.delta === null ? '-' : formatDelta(row.delta), COLUMNS.delta, 'right'),
    fit(number(row.threshold), COLUMNS.threshold, 'right'),
    fit(number(row.max_drop), COLUMNS.drop, 'right'),
  ].join(' ');
  const notes = [row.regression ? 'regressed' : '', row.below_floor ? 'below floor' : ''].filter((note) => note !== '');
  return [
    { text: `${cells}  ` },
    { text: row.verdict.toUpperCase(), bold: row.verdict !== 'pass', colour: theme.status(row.verdict) },
    { text: notes.length > 0 ? ` ${notes.join(', ')}` : '', dim: true },
  ];
}
