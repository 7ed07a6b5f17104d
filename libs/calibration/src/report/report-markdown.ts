import { describeSessionChoice, type AxisAgreement, type CalibrationReport, type ComparisonReport } from './calibration-report.js';
import { OVERALL } from './comparison-pairs.js';
import { formatBias, formatInterval, formatMeasure } from './format-measure.js';

/** The first and second rater of each comparison, for matrix headings. */
const SIDES: Record<ComparisonReport['id'], [string, string]> = {
  judge_vs_human: ['judge', 'human'],
  cross_check_vs_human: ['cross-check', 'human'],
  judge_vs_cross_check: ['judge', 'cross-check'],
  human_vs_human: ['first reviewer (by name)', 'second reviewer'],
};

/** `calibration/reports/<date>.md`: the report for people, with every number of the JSON. */
export function calibrationReportMarkdown(report: CalibrationReport): string {
  const lines: string[] = [];
  const { set, session, gate } = report;
  lines.push(`# Calibration report ${report.generated_at.slice(0, 10)}`, '');
  const reviewers = Object.entries(set.reviewers).map(([name, count]) => `${name} ${count}`).join(', ') || 'nobody yet';
  lines.push(
    `Set \`${set.path}\` (owner ${set.owner}): ${set.items} items, ${set.rated_items} rated by people under rubric ${session.rubric_version} (${reviewers}).`,
    `Session \`${session.id}\` (${session.mode}, ${session.started_at}), ${describeSessionChoice(session)}: judge ${model(session.judge)}, cross-check ${model(session.cross_check)}; ` +
      `usable ratings: judge ${session.rated.judge}, cross-check ${session.rated.cross_check}` +
      `${session.errors.length > 0 ? `, ${session.errors.length} errors` : ''}.`,
    '',
  );

  lines.push(`## Gate: ${gate.passed ? 'PASS' : 'FAIL'}`, '');
  lines.push(`Judge vs human, per axis: quadratic kappa ≥ ${gate.min_kappa} and |bias| ≤ ${gate.max_bias} points.`, '');
  lines.push(...table(['axis', 'quadratic κ', 'bias', 'result'], gate.axes.map((axis) => [axis.axis, formatMeasure(axis.kappa_quadratic), formatBias(axis.bias), axis.passed ? 'pass' : `**fail**: ${axis.problems.join('; ')}`])), '');

  for (const comparison of report.comparisons) {
    lines.push(`## ${capitalised(comparison.label)}`, '');
    if (comparison.axes.every((row) => row.n === 0)) {
      lines.push(comparison.id === 'human_vs_human' ? 'No item has ratings from two reviewers.' : 'No pairs to compare.', '');
      continue;
    }
    lines.push(
      ...table(
        ['axis', 'n', 'items', 'κ quadratic', '95% analytic', '95% bootstrap', 'κ linear', 'κ unweighted', 'exact', 'bias', 'α ordinal', 'band'],
        comparison.axes.map((row) => [
          row.axis === OVERALL ? '**overall**' : row.axis,
          String(row.n),
          String(row.items),
          formatMeasure(row.kappa.quadratic),
          formatInterval(row.analytic_interval.quadratic),
          formatInterval(row.bootstrap_interval.quadratic) + undefinedResamples(row),
          formatMeasure(row.kappa.linear),
          formatMeasure(row.kappa.unweighted),
          formatMeasure(row.exact_agreement),
          formatBias(row.bias),
          formatMeasure(row.alpha.ordinal),
          row.band ?? 'undefined',
        ]),
      ),
      '',
    );
    const [first, second] = SIDES[comparison.id];
    lines.push(`Confusion matrices (rows: ${first}, columns: ${second}):`, '');
    for (const row of comparison.axes) {
      lines.push(`**${row.axis}**`, '', ...table([`${first} \\ ${second}`, '1', '2', '3', '4', '5'], row.confusion_matrix.map((counts, index) => [String(index + 1), ...counts.map(String)])), '');
    }
  }

  lines.push("## Krippendorff's alpha over all raters", '');
  lines.push(`Raters: ${report.alpha_all_raters[0]?.raters.join(', ') ?? ''}; units are items (overall: item × axis); missing ratings allowed.`, '');
  lines.push(...table(['axis', 'α ordinal', 'α interval'], report.alpha_all_raters.map((row) => [row.axis, formatMeasure(row.ordinal), formatMeasure(row.interval)])), '');

  lines.push('## Trend', '');
  lines.push('Judge vs human quadratic kappa of this session and earlier ones (replays of a recording are not listed), against the current human ratings.', '');
  const axes = [...set.axes, OVERALL];
  lines.push(
    ...table(
      ['session', 'started', 'mode', 'judge', 'rubric', 'items', ...axes],
      report.trend.map((entry, index) => [
        index === 0 ? `${entry.session_id} (this)` : entry.session_id,
        entry.started_at.slice(0, 10),
        entry.mode,
        model(entry.judge),
        entry.rubric_version,
        String(entry.items),
        ...axes.map((axis) => formatMeasure(entry.kappa_quadratic[axis])),
      ]),
    ),
    '',
  );

  if (report.warnings.length > 0 || session.errors.length > 0) {
    lines.push('## Warnings', '');
    for (const warning of report.warnings) lines.push(`- ${warning}`);
    for (const error of session.errors) lines.push(`- ${error.item_id} (${error.rater}): ${error.error}`);
    lines.push('');
  }

  const { method } = report;
  lines.push('## Method', '');
  lines.push(
    `- Labels are always the full scale ${method.labels.join(', ')}; linear and quadratic kappa weigh disagreements by position on it.`,
    '- "undefined" is 0/0: no pairs, or both raters used a single rating value. It is never shown as 0 or 1.',
    `- 95% intervals: analytic (${method.analytic_interval}, z = ${method.z}) and a percentile bootstrap over items (${method.bootstrap.resamples} resamples, seed ${method.bootstrap.seed}; resamples whose kappa is undefined are left out and counted).`,
    `- Pairing: ${method.pairing}. Bias is the mean of first − second (judge − human).`,
    `- α: ${method.alpha}.`,
    '- Landis–Koch bands of the quadratic kappa: < 0 poor, ≤ 0.20 slight, ≤ 0.40 fair, ≤ 0.60 moderate, ≤ 0.80 substantial, above almost perfect.',
    '',
  );
  return `${lines.join('\n')}`;
}

function undefinedResamples(row: AxisAgreement): string {
  const count = row.bootstrap_interval.quadratic.undefined_resamples;
  return count > 0 ? ` (${count} undefined)` : '';
}

function model(record: { provider: string; model: string } | null): string {
  return record === null ? 'none' : `${record.provider}:${record.model}`;
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function table(header: string[], rows: string[][]): string[] {
  const escape = (cell: string): string => cell.replaceAll('|', '\\|');
  return [`| ${header.map(escape).join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`)];
}
