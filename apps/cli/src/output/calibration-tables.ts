import type { CalibrationReport, CalibrationStatus, describeSessionChoice, formatBias, formatInterval, formatMeasure } from '@parley/calibration';
import Table from 'cli-table3';
import { counted } from './counted.js';
import type { Paint } from './output.js';
import { ratingErrorLines } from './rating-errors.js';

/**
 * The console tables of `parley calibrate status` and `parley calibrate report`. Presentation
 * lives in the app: @parley/calibration computes the report and writes its files, the CLI draws it.
 */

export function statusText(status: CalibrationStatus, colors: Paint): string {
  const lines = [colors.bold(`calibration set ${status.folder}: ${counted(status.items, 'item')}, rubric ${status.rubric_version}, owner ${status.owner}`)];
  lines.push(`axes: ${status.axes.join(', ')}`);
  if (status.reviewers.length === 0) lines.push('ratings: none yet');
  else {
    const table = plainTable(['reviewer', 'rated', 'all axes', 'to rate']);
    for (const reviewer of status.reviewers) table.push([reviewer.reviewer, reviewer.rated, reviewer.complete, reviewer.to_rate]);
    lines.push(table.toString());
  }
  lines.push(
    status.unrated.length === 0
      ? 'unrated items: none'
      : `unrated items: ${status.unrated.length} (${status.unrated.slice(0, 6).join(', ')}${status.unrated.length > 6 ? ', …' : ''})`,
  );
  const last = status.last_session;
  if (last === null) lines.push('judges: never run on this set (`parley calibrate judge`)');
  else {
    lines.push(
      `last judge session: ${last.id} (${last.mode}) started ${last.started_at}${last.finished_at === null ? ', unfinished' : ''}; ` +
        `judge ${last.judge ?? 'none'}, cross-check ${last.cross_check ?? 'none'}; ${counted(last.ratings, 'rating')}, ${counted(last.errors, 'error')}; ${counted(status.sessions, 'session')} in all`,
    );
  }
  for (const warning of status.due.warnings) lines.push(colors.yellow(`warning: ${warning}`));
  return `${lines.join('\n')}\n`;
}

export interface ReportFormatters {
  describeSessionChoice: typeof describeSessionChoice;
  formatBias: typeof formatBias;
  formatInterval: typeof formatInterval;
  formatMeasure: typeof formatMeasure;
}

/** The console form of the report: the gate, one table per comparison (axes as columns), alpha, trend. */
export function reportText(report: CalibrationReport, colors: Paint, format: ReportFormatters, columns: number, parley = 'parley'): string {
  const { describeSessionChoice, formatBias, formatInterval, formatMeasure } = format;
  const lines: string[] = [];
  const { session, set } = report;
  lines.push(
    colors.bold(`calibration ${set.path}: ${counted(set.items, 'item')}, ${set.rated_items} rated by people · session ${session.id} (${session.mode})`),
    `session: ${describeSessionChoice(session)}`,
    colors.dim(
      `judge ${session.judge ? `${session.judge.provider}:${session.judge.model}` : 'none'} · cross-check ${session.cross_check ? `${session.cross_check.provider}:${session.cross_check.model}` : 'none'} · rubric ${session.rubric_version}`,
    ),
    '',
  );
  const gate = report.gate;
  const verdict = gate.passed ? colors.status('pass', 'PASS') : colors.status('fail', 'FAIL');
  lines.push(`${verdict} gate: judge vs human quadratic kappa ≥ ${gate.min_kappa} and |bias| ≤ ${gate.max_bias} on every axis`);
  const axisWidth = Math.max(6, ...gate.axes.map((axis) => axis.axis.length)) + 2;
  // The bias column holds `undefined` whole (a session whose judge rated nothing has no bias).
  const biasWidth = 11;
  const gateTable = plainTable(['axis', 'κ quadratic', 'bias', 'result'], [axisWidth, 13, biasWidth, Math.max(20, Math.max(columns, 80) - axisWidth - 13 - biasWidth - 5)]);
  for (const axis of gate.axes) {
    gateTable.push([axis.axis, formatMeasure(axis.kappa_quadratic), formatBias(axis.bias), axis.passed ? colors.status('pass', 'pass') : colors.status('fail', axis.problems.join('; '))]);
  }
  lines.push(gateTable.toString(), '');

  for (const comparison of report.comparisons) {
    if (comparison.axes.every((row) => row.n === 0)) {
      lines.push(colors.bold(comparison.label), colors.dim(comparison.id === 'human_vs_human' ? '  no item has ratings from two reviewers' : '  no pairs to compare'), '');
      continue;
    }
    const table = plainTable([comparison.label, ...comparison.axes.map((row) => row.axis.replaceAll('_', ' '))], fitColumns(columns, 20, comparison.axes.length));
    const row = (label: string, cell: (entry: (typeof comparison.axes)[number]) => string): void => {
      table.push([label, ...comparison.axes.map(cell)]);
    };
    row('n pairs (items)', (entry) => `${entry.n} (${entry.items})`);
    row('κ quadratic', (entry) => formatMeasure(entry.kappa.quadratic));
    row('  95% analytic', (entry) => formatInterval(entry.analytic_interval.quadratic, 2));
    row('  95% bootstrap', (entry) => {
      const undefinedCount = entry.bootstrap_interval.quadratic.undefined_resamples;
      return `${formatInterval(entry.bootstrap_interval.quadratic, 2)}${undefinedCount > 0 ? ` ${undefinedCount}u` : ''}`;
    });
    row('κ linear', (entry) => formatMeasure(entry.kappa.linear));
    row('κ unweighted', (entry) => formatMeasure(entry.kappa.unweighted));
    row('exact agreement', (entry) => formatMeasure(entry.exact_agreement));
    row('bias', (entry) => formatBias(entry.bias));
    row('α ordinal', (entry) => formatMeasure(entry.alpha.ordinal));
    row('band', (entry) => entry.band ?? 'undefined');
    lines.push(table.toString());
    if (comparison.axes.some((entry) => entry.bootstrap_interval.quadratic.undefined_resamples > 0)) {
      lines.push(colors.dim('  Nu: N bootstrap resamples with an undefined kappa were left out'));
    }
    lines.push('');
  }

  const overall = report.comparisons[0]?.axes.find((row) => row.axis === 'overall');
  if (overall !== undefined && overall.n > 0) {
    lines.push(colors.bold('judge vs human, all axes: confusion matrix (rows judge, columns human)'));
    const matrix = plainTable(['', '1', '2', '3', '4', '5']);
    overall.confusion_matrix.forEach((counts, index) => matrix.push([String(index + 1), ...counts.map(String)]));
    lines.push(matrix.toString(), '');
  }

  const alpha = plainTable(["α all raters", 'ordinal', 'interval']);
  for (const row of report.alpha_all_raters) alpha.push([row.axis, formatMeasure(row.ordinal), formatMeasure(row.interval)]);
  lines.push(alpha.toString(), '');

  if (report.trend.length > 1) {
    const trend = plainTable(['session', 'started', 'mode', 'judge', 'κ quadratic overall']);
    report.trend.forEach((entry, index) =>
      trend.push([index === 0 ? `${entry.session_id} (this)` : entry.session_id, entry.started_at.slice(0, 10), entry.mode, entry.judge?.model ?? 'none', formatMeasure(entry.kappa_quadratic['overall'])]),
    );
    lines.push(colors.bold('trend'), trend.toString(), '');
  }
  for (const warning of report.warnings) lines.push(colors.yellow(`warning: ${warning}`));
  const errors = ratingErrorLines(report.session.errors, set.path, parley);
  if (errors.length > 0) lines.push(colors.yellow(`warning: ${errors[0]!}`), ...errors.slice(1));
  return `${lines.join('\n')}\n`;
}

function plainTable(head: string[], colWidths?: number[]): Table.Table {
  return new Table({
    head,
    style: { head: [], border: [], 'padding-left': 1, 'padding-right': 1 },
    chars: COMPACT_BORDERS,
    wordWrap: true,
    ...(colWidths !== undefined ? { colWidths } : {}),
  });
}

/**
 * Widths that fit a label column and `count` value columns into the terminal (80 columns and up):
 * long axis names wrap onto a second line instead of pushing the table off the screen.
 */
function fitColumns(columns: number, labelWidth: number, count: number): number[] {
  const label = labelWidth + 2;
  const borders = count + 2;
  const value = Math.max(14, Math.min(28, Math.floor((Math.max(columns, 80) - label - borders) / count)));
  return [label, ...new Array<number>(count).fill(value)];
}

/** No separator line between rows. */
const COMPACT_BORDERS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };
