import { terminalSafe } from '@parley/core';
import { selectionSentence, type RunReport } from '@parley/reports';

/**
 * What the console says about gating after the summary table: run-level warnings (stderr, like
 * every warning), which scenarios the gate matrix or shard chose, what the baseline comparison
 * found, and where an exported baseline went.
 */
export function gateNotes(report: RunReport, exported?: { file: string; entries: number }): { out: string; err: string } {
  const err = (report.warnings ?? []).map((warning) => `warning: ${warning.message}${warning.fails_under_strict && report.strict ? ' (fails the run under --strict)' : ''}\n`).join('');
  const out: string[] = [];
  const selection = selectionSentence(report);
  if (selection !== null) out.push(selection.replaceAll('`', ''));
  const baseline = report.baseline;
  if (baseline !== undefined) {
    out.push(
      `baseline ${baseline.file} (${baseline.created_at}): ${baseline.compared} compared, ${baseline.regressions} regressed, ${baseline.below_floor} below the floor, ${baseline.missing} missing, ${baseline.improvements} improved`,
    );
  }
  if (report.budget !== undefined && !idleReplayBudget(report)) out.push(budgetLine(report.budget));
  if (report.repeat !== undefined) {
    const flaky = report.results.filter((result) => result.status === 'flaky').length;
    out.push(`each scenario ran ${report.repeat} times: ${flaky} flaky`);
  }
  if (exported !== undefined) out.push(`baseline written: ${exported.file} (${exported.entries} ${exported.entries === 1 ? 'entry' : 'entries'})`);
  return { out: out.length > 0 ? `${out.join('\n')}\n` : '', err };
}

/**
 * A replay that paid nothing and gave nothing up under its budget (the suite's `budget_usd` applies
 * to every run): the totals line already says `$0 spent`, and a budget line would only be noise.
 * A replay judged live pays, and says so.
 */
function idleReplayBudget(report: RunReport): boolean {
  const budget = report.budget!;
  return report.mode === 'replay' && !budget.exhausted && budget.downgrades.length === 0 && (budget.spent_usd ?? 0) === 0;
}

/**
 * The budget, what the run spent of it and what it gave up: `budget $0.0300, exhausted: $0.0044
 * spent; 4 scenarios cut short (…): mini_a, …; 3 blocking scenarios unchecked: …`.
 */
function budgetLine(budget: NonNullable<RunReport['budget']>): string {
  const share = budget.split
    ? ` (this shard's share of $${budget.split.total_usd.toFixed(4)} for ${budget.split.shards} shards)`
    : budget.shared
      ? ` (shared under key ${terminalSafe(budget.shared.key)}: $${budget.shared.spent_usd.toFixed(4)} spent by all its runs)`
      : '';
  const spent = budget.spent_usd === undefined ? '' : `: $${budget.spent_usd.toFixed(4)} spent`;
  const given = budget.downgrades.length > 0 ? `; ${budget.downgrades.map(terminalSafe).join('; ')}` : '';
  const rerun = budget.rerun === undefined ? '' : `; to run what it left out: ${terminalSafe(budget.rerun)}`;
  return `budget $${budget.limit_usd.toFixed(4)}${share}, ${budget.exhausted ? 'exhausted' : 'not reached'}${spent}${given}${rerun}`;
}
