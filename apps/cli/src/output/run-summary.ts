import Table from 'cli-table3';
import { shortenCaseId, terminalSafe } from '@parley/core';
import { replayPaidNothing, unknownCostReason, type RunReport } from '@parley/reports';
import { counted, paint, type Paint } from './output.js';
import { hangingWrap, wrapText } from './text-wrap.js';

const MIN_REASON_WIDTH = 24;
const MIN_ID_WIDTH = 14;
/**
 * At most this many table rows: a person reads the problems, not ten thousand passes (and the
 * table library's layout grows with the square of its rows). Every result is in report.json.
 */
export const MAX_TABLE_ROWS = 40;
/** No separator line between rows: the table stays one line per scenario where it fits. */
const COMPACT_BORDERS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

/**
 * The console summary of a run: one table row per scenario (failures first), then the failing
 * expectations with their reasons, then totals and where the reports are.
 */
export function renderRunSummary(report: RunReport, colors: Paint, outDir: string, columns = 100, wrapMessages = true, parley = 'parley'): string {
  // Off a terminal, a failing expectation stays one line (logs are read by tools and searched).
  const messageWidth = wrapMessages ? columns - 1 : Number.MAX_SAFE_INTEGER;
  const order = { error: 0, fail: 1, flaky: 2, warn: 3, skipped: 4, pass: 5 } as const;
  const sorted = [...report.results].sort(
    (left, right) => order[left.status] - order[right.status] || (left.scenario_id < right.scenario_id ? -1 : 1),
  );
  const results = sorted.slice(0, MAX_TABLE_ROWS);
  const hidden = sorted.length - results.length;
  const widest = (values: string[], header: string) => Math.max(header.length, ...values.map((value) => value.length)) + 2;
  let columnsShown: SummaryColumn[] = ['scenario', 'agent', 'gate', 'status'];
  const plain = paint(false);
  const widthOf = (column: SummaryColumn) => widest(results.map((result) => cellOf(result, column, plain)), column);
  const fixedWidth = (shown: SummaryColumn[]) => shown.reduce((sum, column) => sum + widthOf(column), 0) + shown.length + 2;
  // On a narrow terminal the agent column goes first: the scenario id usually names it anyway.
  if (columns - 1 - fixedWidth(columnsShown) < MIN_REASON_WIDTH) columnsShown = ['scenario', 'gate', 'status'];
  // One column spare: a line that exactly fills the terminal wraps in some of them.
  const widths = columnsShown.map(widthOf);
  const overflow = fixedWidth(columnsShown) + MIN_REASON_WIDTH - (columns - 1);
  // Still too wide: long scenario ids wrap inside their column rather than breaking the table.
  if (overflow > 0) widths[0] = Math.max(MIN_ID_WIDTH, widths[0]! - overflow);
  const reasonWidth = Math.max(MIN_REASON_WIDTH, columns - 1 - (widths.reduce((sum, width) => sum + width, 0) + columnsShown.length + 2));
  const table = new Table({
    head: [...columnsShown, 'reason'],
    style: { head: [], border: [] },
    chars: COMPACT_BORDERS,
    wordWrap: true,
    wrapOnWordBoundary: false,
    colWidths: [...widths, reasonWidth],
  });
  for (const result of results) {
    // The table library wraps cells without knowing colour codes (it would cut `\u001b[31mfail` in
    // three lines), so only plain cells wrap; the status cell is sized to fit and never wrapped.
    const cells = columnsShown.map((column) =>
      column === 'status'
        ? { content: cellOf(result, column, colors), wordWrap: false }
        : column === 'scenario'
          ? idCell(result.scenario_id, widths[0]! - 2)
          : cellOf(result, column, plain),
    );
    table.push([...cells, shorten(terminalSafe(result.reason), (reasonWidth - 2) * 2)]);
  }
  const more = hidden > 0 ? hangingWrap(`… and ${hidden} more scenarios (${describeHidden(sorted.slice(MAX_TABLE_ROWS))}): see report.json`, columns - 1, '  ') : [];
  const lines = [table.toString(), ...more.map(colors.dim), ''];

  const failing = sorted.filter((result) => result.status === 'fail' || result.status === 'error').slice(0, MAX_TABLE_ROWS);
  for (const result of failing) {
    const label = result.gate === 'advisory' ? `${result.status}, advisory` : result.status;
    lines.push(`${colors.status(result.status, '✗')} ${colors.bold(result.scenario_id)} ${fitTo(`(${label})`, columns - 3 - result.scenario_id.length)}`);
    if (result.error) lines.push(...wrapText(terminalSafe(result.error.message), messageWidth, '    '), ...indent(result.error.details === undefined ? undefined : terminalSafe(result.error.details), messageWidth));
    for (const metric of result.metrics.filter((item) => !item.passed)) {
      lines.push(...wrapText(`${metric.metric}@${metric.version}: ${terminalSafe(metric.reason)}`, messageWidth, '    '));
      lines.push(...indent(metricErrorOutput(metric), messageWidth));
    }
  }
  if (failing.length) lines.push('');

  const counts = Object.entries(report.counts)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  const saving = report.cost.cache_saving_usd;
  const recorded = replayPaidNothing(report) ? ' as recorded, $0 spent' : '';
  const cost = `${report.cost_usd === null ? `cost unknown (${terminalSafe(unknownCostReason(report))})` : `$${report.cost_usd.toFixed(4)}`}${recorded}${saving !== undefined && saving !== null && saving !== 0 ? ` (prompt cache saved $${saving.toFixed(4)})` : ''}`;
  const interruption = report.interruption;
  const scenarios =
    interruption !== undefined
      ? `${interruption.ran} of ${interruption.planned} ran${counts === '' ? '' : `: ${counts}`}`
      : `${counted(report.results.length, 'scenario')}: ${counts}`;
  const verdict = report.status.toUpperCase();
  const [first = '', ...rest] = hangingWrap(
    `${verdict} · ${scenarios} · ${report.mode} · ${cost} · ${(report.duration_ms / 1000).toFixed(2)} s · exit ${report.exit_code}`,
    columns - 1,
    '  ',
  );
  lines.push(
    colors.status(report.status, verdict) + first.slice(verdict.length),
    ...rest,
    ...(interruption !== undefined ? hangingWrap(`finish it with: ${interruption.resume}`, columns - 1, '  ') : []),
    ...reportsLines(outDir, report.run_id, columns - 1, parley).map(colors.dim),
    '',
  );
  return lines.join('\n');
}

/**
 * Where the reports went, wrapped at spaces with the folder never cut (a path cut in two cannot be
 * pasted, nor found in a CI log): on the line of `reports:` when it fits there, else on its own.
 */
function reportsLines(outDir: string, runId: string, width: number, parley: string): string[] {
  const where = `${outDir}/{report.json,junit.xml,summary.md,report.html}`;
  const browse = `(in a browser: ${parley} show-report ${runId})`;
  if (`reports: ${where}`.length <= width) return hangingWrap(`reports: ${where} ${browse}`, width, '  ');
  return ['reports:', `  ${where}`, ...wrapText(browse, width, '  ')];
}

function describeHidden(results: RunReport['results']): string {
  const counts = new Map<string, number>();
  for (const result of results) counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count} ${status}`).join(', ');
}

type SummaryColumn = 'scenario' | 'agent' | 'gate' | 'status';

function cellOf(result: RunReport['results'][number], column: SummaryColumn, colors: Paint): string {
  switch (column) {
    case 'scenario':
      return result.scenario_id;
    case 'agent':
      return result.agent;
    case 'gate':
      return result.gate;
    case 'status':
      return colors.status(result.status);
  }
}

/**
 * A case id with a variant's values or a compared agent is cut in the middle to its column, keeping
 * that end (as the TUI does), so six `book_massage[…]` cases are six rows that still differ; a
 * plain scenario id wraps inside its column, losing nothing.
 */
function idCell(id: string, room: number): string {
  return /[[@]/.test(id) ? shortenCaseId(id, room) : id;
}

function shorten(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

/** At most this many lines of what a code metric printed are shown under its error (all are in report.json). */
export const METRIC_OUTPUT_LINES = 12;

/**
 * The end of what a code metric that failed to answer printed (`details.output`: a Python
 * traceback, a module's stack), whose reason alone says only `exited with code 1`; undefined for
 * every other failing metric.
 */
function metricErrorOutput(metric: RunReport['results'][number]['metrics'][number]): string | undefined {
  const output = metric.error === true ? metric.details?.['output'] : undefined;
  if (typeof output !== 'string') return undefined;
  // A program that printed nothing on stderr says so in report.json; here that line is noise.
  const lines = terminalSafe(output.trimEnd())
    .split('\n')
    .filter((line) => line !== 'stderr: (empty)');
  if (lines.length === 0) return undefined;
  return lines.length > METRIC_OUTPUT_LINES ? ['…', ...lines.slice(-METRIC_OUTPUT_LINES)].join('\n') : lines.join('\n');
}

/** Error details (diffs, output of hooks) keep their spacing: long lines are cut into pieces, not re-flowed. */
function indent(text: string | undefined, width: number): string[] {
  const room = Math.min(100_000, Math.max(20, width - 6));
  return text ? text.split('\n').flatMap((line) => (line.match(new RegExp(`.{1,${room}}`, 'gu')) ?? ['']).map((piece) => `      ${piece}`)) : [];
}

/** `text` cut to `room` columns (at least a few), with `…` when cut. */
function fitTo(text: string, room: number): string {
  return text.length <= Math.max(4, room) ? text : `${text.slice(0, Math.max(3, room - 1))}…`;
}
