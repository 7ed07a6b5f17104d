import type { Status } from '@parley/core';
import { EXIT_GATE_FAILED, failsGate, isInterruptedExit, STATUSES_BY_SEVERITY, statusSeverity } from '@parley/gate';
import { baselineSection, selectionSentence, warningLines } from './gate-sections.js';
import { escapeInlineText, escapeTableCell } from './markdown-text.js';
import { judgeSummary } from './judge-section.js';
import { comparisonSection } from './comparison-section.js';
import type { ReportResult, RunReport } from './report-schema.js';
import { describeTroubledMetric, troubledMetrics } from './troubled-metrics.js';
import { replayPaidNothing, unknownCostReason } from './run-values-text.js';

/**
 * `summary.md`: what a reviewer of a PR sees in the GitHub job summary. A title line saying
 * whether the gate held and why, the totals, a table of blocking scenarios and a separate table of
 * advisory ones (worst first, so a red run opens on its failures), then one section per failing
 * scenario with its failed expectations. Plain text statuses, no emoji, so it reads the same in a
 * terminal, an e-mail and a CI page.
 */
export function renderSummaryMarkdown(report: RunReport): string {
  const blocking = report.results.filter((result) => result.gate === 'blocking');
  const advisory = report.results.filter((result) => result.gate === 'advisory');
  const failing = report.results.filter(
    (result) => result.status === 'fail' || result.status === 'error' || failsGate(result, { strict: report.strict }),
  );

  const selection = selectionSentence(report);
  const warnings = warningLines(report);
  const baseline = baselineSection(report);
  const sections = [
    `## ${summaryTitle(report)}`,
    totalsSection(report),
    ...(selection !== null ? [selection] : []),
    ...(warnings.length > 0 ? [warnings.join('\n')] : []),
    ...(baseline !== null ? [baseline] : []),
    ...(report.comparison !== undefined ? [comparisonSection(report.comparison)] : []),
    scenarioTable('Blocking scenarios', blocking),
    ...(advisory.length > 0 ? [scenarioTable('Advisory scenarios', advisory, 'Advisory scenarios never fail the run.')] : []),
    ...(failing.length > 0 ? [failuresSection(failing)] : []),
  ];
  return `${sections.join('\n\n')}\n`;
}

const VERBS: Partial<Record<Status, string>> = { error: 'errored', fail: 'failed', flaky: 'flaky', warn: 'with warnings' };

/**
 * `Parley: FAIL — 2 of 11 blocking scenarios failed`: the run's status, then how many blocking
 * scenarios are behind it, worst kind first.
 */
export function summaryTitle(report: RunReport): string {
  if (report.interruption !== undefined) return interruptedTitle(report, report.interruption);
  const blocking = report.results.filter((result) => result.gate === 'blocking' && result.status !== 'skipped');
  const skipped = report.results.filter((result) => result.status === 'skipped').length;
  const advisoryRan = report.results.filter((result) => result.gate === 'advisory' && result.status !== 'skipped').length;

  const smoke = report.selection?.changed_since?.smoke === true;
  const phrases: string[] = [];
  for (const status of STATUSES_BY_SEVERITY) {
    const verb = VERBS[status];
    const count = blocking.filter((result) => result.status === status).length;
    if (verb === undefined || count === 0) continue;
    phrases.push(phrases.length === 0 ? `${count} of ${blocking.length} blocking ${plural(blocking.length, 'scenario')} ${verb}` : `${count} ${verb}`);
  }
  if (phrases.length === 0) {
    if (blocking.length > 0) phrases.push(`all ${blocking.length} blocking ${plural(blocking.length, 'scenario')} passed`);
    else if (advisoryRan > 0) phrases.push(`${smoke ? 'smoke run, ' : ''}no blocking scenarios; ${advisoryRan} advisory ${plural(advisoryRan, 'scenario')} ran`);
    else if (skipped > 0) phrases.push(`all ${skipped} ${plural(skipped, 'scenario')} skipped`);
    else phrases.push(smoke ? 'smoke run, no scenarios ran' : 'no scenarios ran');
  }
  const anyRan = blocking.length > 0 || advisoryRan > 0;
  if (skipped > 0 && anyRan) phrases.push(`${skipped} skipped`);
  const unchecked = report.budget?.unchecked_blocking ?? 0;
  if (unchecked > 0) phrases.push(`${unchecked} blocking ${plural(unchecked, 'scenario')} unchecked (budget reached)`);

  const failedOnlyUnderStrict = report.exit_code === EXIT_GATE_FAILED && (report.status === 'warn' || report.status === 'flaky');
  const gateNote =
    isInterruptedExit(report.exit_code) ? ' (interrupted)' : failedOnlyUnderStrict ? ' (exit 1 under --strict)' : '';
  return `Parley: ${report.status.toUpperCase()} — ${phrases.join(', ')}${gateNote}`;
}

/** `Parley: INTERRUPTED — 2 of 6 scenarios ran (stopped by SIGTERM); finish with `parley run --resume ID``. */
function interruptedTitle(report: RunReport, interruption: NonNullable<RunReport['interruption']>): string {
  const by = interruption.signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl-C';
  return `Parley: ${report.status.toUpperCase()} — ${interruption.ran} of ${interruption.planned} ${plural(interruption.planned, 'scenario')} ran (stopped by ${by}); finish with \`${interruption.resume}\``;
}

function totalsSection(report: RunReport): string {
  const facts = [
    `Suite \`${report.suite}\``,
    `run \`${report.run_id}\``,
    `mode ${report.mode}`,
    `duration ${formatDuration(report.duration_ms)}`,
    `cost ${formatCost(report)}`,
    `exit code ${report.exit_code}${report.strict ? ' (--strict)' : ''}`,
    ...(report.repeat !== undefined ? [`each scenario run ${report.repeat} times`] : []),
  ];
  const counts = STATUSES_BY_SEVERITY.map((status) => String(report.counts[status]));
  const lines = [
    facts.join(' · '),
    '',
    `| ${STATUSES_BY_SEVERITY.join(' | ')} |`,
    `| ${STATUSES_BY_SEVERITY.map(() => '---:').join(' | ')} |`,
    `| ${counts.join(' | ')} |`,
  ];
  if (report.budget !== undefined) {
    const { limit_usd, exhausted, downgrades, split, shared, spent_usd, estimate } = report.budget;
    const what = downgrades.length > 0 ? `: ${downgrades.map(escapeInlineText).join('; ')}` : '';
    const share = split
      ? ` (this shard's share of ${formatUsd(split.total_usd)} for ${split.shards} shards)`
      : shared
        ? ` (shared under key ${escapeInlineText(shared.key)}: ${formatUsd(shared.spent_usd)} spent by all its runs)`
        : '';
    lines.push('', `Budget ${formatUsd(limit_usd)}${share}, ${exhausted ? 'exhausted' : 'not reached'}${what}`);
    if (report.budget.rerun !== undefined) lines.push(`To run what it left out: \`${report.budget.rerun.replaceAll('`', "'")}\``);
    if (spent_usd !== undefined && estimate !== undefined && estimate.scenarios > 0) {
      // Under --repeat a scenario reserves and spends for all its attempts at once: the count is of scenarios.
      const attempts = report.repeat !== undefined && report.repeat > 1 ? ` (each with its ${report.repeat} attempts)` : '';
      lines.push(`Spent ${formatUsd(spent_usd)} of it; the ${estimate.scenarios} scenarios started${attempts} reserved ${formatUsd(estimate.estimated_usd)} as estimates and spent ${formatUsd(estimate.actual_usd)}`);
    }
  }
  const judge = judgeSummary(report.judge);
  if (judge !== null) lines.push('', escapeInlineText(judge));
  return lines.join('\n');
}

function scenarioTable(heading: string, results: readonly ReportResult[], note?: string): string {
  if (results.length === 0) return `### ${heading}\n\nNone.`;
  const rows = worstFirst(results).map(
    (result) => `| \`${result.scenario_id}\` | ${result.status.toUpperCase()}${flakyMarkNote(result)} | ${escapeTableCell(result.reason)} |`,
  );
  const intro = note === undefined ? [] : [note, ''];
  return [`### ${heading} (${results.length})`, '', ...intro, '| Scenario | Status | Reason |', '| --- | --- | --- |', ...rows].join('\n');
}

function failuresSection(results: readonly ReportResult[]): string {
  const parts = ['### Failures'];
  for (const result of worstFirst(results)) {
    const gate = result.gate === 'advisory' ? ' (advisory)' : '';
    const lines = troubledMetrics(result.metrics).map((metric) => `- ${escapeInlineText(describeTroubledMetric(metric))}`);
    if (result.error !== undefined) lines.unshift(`- ${escapeInlineText(`error (${result.error.kind}): ${result.error.message}`)}`);
    if (lines.length === 0) lines.push(`- ${escapeInlineText(result.reason)}`);
    if (result.flaky_mark?.note !== undefined) lines.push(`- ${escapeInlineText(`triage note: ${result.flaky_mark.note}`)}`);
    parts.push(`#### \`${result.scenario_id}\` — ${result.status.toUpperCase()}${gate}${flakyMarkNote(result)}\n\n${lines.join('\n')}`);
  }
  return parts.join('\n\n');
}

/** ` (marked flaky in triage on 2026-11-26)` for a scenario a person marked flaky, else nothing. */
function flakyMarkNote(result: Pick<ReportResult, 'flaky_mark'>): string {
  return result.flaky_mark === undefined ? '' : ` (marked flaky in triage on ${result.flaky_mark.marked_at.slice(0, 10)})`;
}

function worstFirst(results: readonly ReportResult[]): ReportResult[] {
  return [...results].sort(
    (left, right) =>
      statusSeverity(right.status) - statusSeverity(left.status) ||
      (left.scenario_id < right.scenario_id ? -1 : left.scenario_id > right.scenario_id ? 1 : 0),
  );
}

function formatCost(report: RunReport): string {
  const { cost } = report;
  const usd = cost.usd === null ? `unknown (${escapeInlineText(unknownCostReason(report))})` : formatUsd(cost.usd);
  const cached =
    cost.cached_input_tokens !== undefined && cost.cached_input_tokens > 0
      ? `; ${groupDigits(cost.cached_input_tokens)} input tokens read from the prompt cache${cost.cache_saving_usd === null || cost.cache_saving_usd === undefined ? '' : `, saving ${formatUsd(cost.cache_saving_usd)}`}`
      : '';
  const recorded = replayPaidNothing(report) ? ' as recorded, $0 spent by this replay' : '';
  return `${usd}${recorded} (${groupDigits(cost.input_tokens)} input + ${groupDigits(cost.output_tokens)} output tokens, ${groupDigits(cost.calls)} ${plural(cost.calls, 'call')}${cached})`;
}

function formatUsd(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

function formatDuration(milliseconds: number): string {
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`;
  const seconds = Math.round(milliseconds / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** `1234567` → `1,234,567`, independent of the machine's locale. */
function groupDigits(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function plural(count: number, noun: string): string {
  return count === 1 ? noun : `${noun}s`;
}
