import Table from 'cli-table3';
import type { RunReport } from '@parley/reports';
import type { Paint } from './output.js';

const REASON_WIDTH = 60;

/**
 * The console summary of a run: one table row per scenario (failures first), then the failing
 * expectations with their reasons, then totals and where the reports are.
 */
export function renderRunSummary(report: RunReport, colors: Paint, outDir: string): string {
  const order = { error: 0, fail: 1, flaky: 2, warn: 3, skipped: 4, pass: 5 } as const;
  const results = [...report.results].sort(
    (left, right) => order[left.status] - order[right.status] || left.scenario_id.localeCompare(right.scenario_id),
  );
  const table = new Table({
    head: ['scenario', 'agent', 'gate', 'status', 'reason'],
    style: { head: [], border: [] },
    wordWrap: true,
    colWidths: [null, null, null, null, REASON_WIDTH],
  });
  for (const result of results) {
    table.push([result.scenario_id, result.agent, result.gate, colors.status(result.status), shorten(result.reason, REASON_WIDTH * 2)]);
  }
  const lines = [table.toString(), ''];

  const failing = results.filter((result) => result.status === 'fail' || result.status === 'error');
  for (const result of failing) {
    const label = result.gate === 'advisory' ? `${result.status}, advisory` : result.status;
    lines.push(`${colors.status(result.status, '✗')} ${colors.bold(result.scenario_id)} (${label})`);
    if (result.error) lines.push(`    ${result.error.message}`, ...indent(result.error.details));
    for (const metric of result.metrics.filter((item) => !item.passed)) {
      lines.push(`    ${metric.metric}@${metric.version}: ${metric.reason}`);
    }
  }
  if (failing.length) lines.push('');

  const counts = Object.entries(report.counts)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  const cost = report.cost_usd === null ? 'cost unknown' : `$${report.cost_usd.toFixed(4)}`;
  lines.push(
    `${colors.status(report.status, report.status.toUpperCase())} · ${report.results.length} scenarios: ${counts} · ${report.mode} · ${cost} · ${(report.duration_ms / 1000).toFixed(2)} s · exit ${report.exit_code}`,
    colors.dim(`reports: ${outDir}/{report.json,junit.xml,summary.md}`),
    '',
  );
  return lines.join('\n');
}

function shorten(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

function indent(text: string | undefined): string[] {
  return text ? text.split('\n').map((line) => `      ${line}`) : [];
}
