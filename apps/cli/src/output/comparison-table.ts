import { formatDeltaCell, formatScoreCell } from '@parley/gate';
import { formatAgentCost, formatMs, formatP, winnerText, type AgentComparisonReport } from '@parley/reports';
import type { Paint } from './output.js';
import { wrapText } from './text-wrap.js';

/** Score rows shown on the console at most; report.json and summary.md have every row. */
export const MAX_SCORE_ROWS = 60;

/**
 * The console's side-by-side view of a comparison run, plain aligned text that fits `columns`:
 * per agent its cases, cost and latency; per metric and challenger the means, the difference, the
 * p-value and the winner; then each scenario's scores per metric.
 */
export function renderComparison(comparison: AgentComparisonReport, colors: Paint, columns = 100): string {
  const width = Math.max(40, columns - 1);
  const [reference, ...others] = comparison.agents;
  const lines: string[] = [colors.bold(`Agents compared: ${comparison.agents.join(' vs ')}`), ''];

  lines.push(
    ...table(
      ['agent', 'cases', 'pass', 'fail', 'error', 'cost', 'calls', 'latency mean/p95'],
      comparison.per_agent.map((totals) => [
        totals.agent,
        String(totals.cases),
        String(totals.counts.pass),
        String(totals.counts.fail),
        String(totals.counts.error),
        formatAgentCost(totals),
        String(totals.cost.calls),
        `${formatMs(totals.mean_latency_ms)} / ${formatMs(totals.p95_latency_ms)}`,
      ]),
      width,
    ),
    '',
  );

  for (const challenger of others) {
    const tests = comparison.tests.filter((test) => test.agent === challenger);
    lines.push(colors.bold(`Winner per metric, ${challenger} against ${reference}`));
    lines.push(
      ...table(
        ['metric', label(reference!), label(challenger), 'Δ', 'p', 'winner'],
        tests.map((test) => [test.metric, formatScoreCell(test.against_mean), formatScoreCell(test.agent_mean), formatDeltaCell(test.mean_delta), formatP(test.p_value), winnerText(test)]),
        width,
        (row, cell, column) => (column === 5 && row.winner !== null ? colors.bold(cell) : column === 5 ? colors.dim(cell) : cell),
        tests,
      ),
    );
    lines.push(...wrapText(comparison.statistics_note, width).map((line) => colors.dim(line)), '');
  }

  const differing = comparison.scores.filter((row) => new Set(comparison.agents.map((agent) => row.scores[agent] ?? null)).size > 1);
  const shown = comparison.scores.length <= MAX_SCORE_ROWS ? comparison.scores : differing.slice(0, MAX_SCORE_ROWS);
  lines.push(colors.bold('Scores per scenario'));
  const rows: string[][] = [];
  let scenario = '';
  for (const row of shown) {
    if (row.scenario_id !== scenario) {
      scenario = row.scenario_id;
      rows.push([scenario, ...comparison.agents.map(() => ''), ...others.map(() => '')]);
    }
    const base = row.scores[reference!] ?? null;
    rows.push([
      `  ${row.metric}`,
      ...comparison.agents.map((agent) => formatScoreCell(row.scores[agent] ?? null)),
      ...others.map((agent) => {
        const score = row.scores[agent] ?? null;
        return base === null || score === null ? '–' : formatDeltaCell(score - base);
      }),
    ]);
  }
  lines.push(...table(['scenario / metric', ...comparison.agents.map(label), ...others.map((agent) => (others.length === 1 ? 'Δ' : `Δ ${label(agent)}`))], rows, width));
  if (shown.length < comparison.scores.length) {
    lines.push(colors.dim(`${comparison.scores.length - shown.length} more rows (equal scores, or beyond ${MAX_SCORE_ROWS}): see summary.md`));
  }
  lines.push('');
  return lines.join('\n');
}


/**
 * Left-aligned first column (and a last `winner` column), right-aligned numbers, two spaces
 * apart; the first column is cut with `…` when the table would be wider than `width`.
 */
function table<T>(
  header: string[],
  rows: string[][],
  width: number,
  style?: (source: T, cell: string, column: number) => string,
  sources?: readonly T[],
): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const rest = widths.slice(1).reduce((sum, columnWidth) => sum + columnWidth + 2, 0);
  widths[0] = Math.max(8, Math.min(widths[0]!, width - rest));
  const line = (row: string[], source?: T): string =>
    row
      .map((cell, column) => {
        const fitted =
          column === 0 ? shorten(cell, widths[0]!).padEnd(widths[0]!) : header[column] === 'winner' ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!);
        return source !== undefined && style ? style(source, fitted, column) : fitted;
      })
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map((row, index) => line(row, sources?.[index]))];
}

/** An agent's name as a column heading: long names are cut so the metric names keep their room. */
function label(agent: string): string {
  return shorten(agent, MAX_AGENT_HEADING);
}

const MAX_AGENT_HEADING = 12;

function shorten(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
