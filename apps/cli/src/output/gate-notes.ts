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
  const unchecked = report.budget?.unchecked_blocking ?? 0;
  if (unchecked > 0) {
    const strictly = report.strict ? 'so --strict fails the run' : 'under --strict that fails the run';
    out.push(`budget reached: ${unchecked} blocking ${unchecked === 1 ? 'scenario' : 'scenarios'} went unchecked (warn; ${strictly})`);
  }
  if (report.repeat !== undefined) {
    const flaky = report.results.filter((result) => result.status === 'flaky').length;
    out.push(`each scenario ran ${report.repeat} times: ${flaky} flaky`);
  }
  if (exported !== undefined) out.push(`baseline written: ${exported.file} (${exported.entries} ${exported.entries === 1 ? 'entry' : 'entries'})`);
  return { out: out.length > 0 ? `${out.join('\n')}\n` : '', err };
}
