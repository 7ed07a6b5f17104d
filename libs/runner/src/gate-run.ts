import { displayPath, formatIssue } from '@parley/core';
import { compareAgents } from '@parley/compare';
import { buildReportOfReported, type JudgeReport, type RunReport } from '@parley/reports';
import { calibrationWarnings } from './calibration-warnings.js';
import type { ExecutedRun } from './execute-run.js';
import { recordJudgeAgreement } from './judge-agreement.js';
import type { OpenRun } from './open-run.js';
import type { RunPlan } from './plan-run.js';
import { PARLEY_VERSION, type RunDependencies } from './run-options.js';

/** The run's verdict: its report (status and exit code included) and when it finished. */
export interface RunVerdict {
  report: RunReport;
  /** The suite's git commit; null outside a repository. */
  gitSha: string | null;
  finishedAt: Date;
  durationMs: number;
}

/**
 * The gate phase: what the run warns about (the baseline, judges due for calibration, judges that
 * agree less than they did), then the report, whose status and exit code gate CI. Nothing is
 * written here but the judges' agreement, kept per run for its trend.
 */
export async function gateRun(plan: RunPlan, run: OpenRun, executed: ExecutedRun, dependencies: RunDependencies): Promise<RunVerdict> {
  const { suite, options, runId, agents } = plan;
  const { clock } = dependencies;
  const interrupted = executed.interruptedBy !== undefined;
  const calibrationDue = suite.config.judge?.primary ? await calibrationWarnings({ cwd: dependencies.cwd, storePath: plan.storePath, now: clock.now(), ...(dependencies.parleyCommand ? { parleyCommand: dependencies.parleyCommand } : {}) }) : [];
  const judgeReport = executed.judging.report;
  const pairs = executed.judging.crossCheckPairs;
  // A resumed run judged only its resumed part: its counters and cross-check pairs are of that part.
  const resumedPart = (plan.resumed?.previous.length ?? 0) > 0;
  // The run's kappa between the two judges, kept per run for the trend (not for the partial sample
  // of an interrupted run, nor of a resumed one: the pairs of its earlier part are not in hand).
  const agreement =
    judgeReport?.cross_check !== undefined && pairs.length > 0 && !interrupted && !resumedPart
      ? await recordJudgeAgreement({ storePath: plan.storePath, run: { id: runId, suite: suite.config.suite, started_at: plan.startedAt.toISOString() }, pairs, ...(dependencies.parleyCommand ? { parleyCommand: dependencies.parleyCommand } : {}) })
      : undefined;
  // What `parley validate` warns about (a judge judging its own model, a variable no {{name}} uses):
  // a run says it too. Under --strict the run stopped on them before it started.
  const suiteWarnings = suite.warnings.map((issue) => ({ kind: 'suite_warning', message: formatIssue({ ...issue, file: displayPath(issue.file, plan.cwd) }), fails_under_strict: true }));
  const warnings = [...suiteWarnings, ...(plan.gate.baseline?.warnings ?? []), ...calibrationDue, ...(agreement?.warnings ?? [])];
  const measured: JudgeReport | undefined =
    judgeReport && agreement && judgeReport.cross_check ? { ...judgeReport, cross_check: { ...judgeReport.cross_check, kappa: agreement.kappa } } : judgeReport;
  // The judges' counters start at 0 in a resumed run: what they count is the part judged after the
  // resume, and the report says so rather than pass it off as the whole run's.
  const judge: JudgeReport | undefined = measured && resumedPart ? { ...measured, resumed_part: true } : measured;
  const gitSha = await run.gitSha;
  const finishedAt = clock.now();
  const durationMs = Math.round(clock.monotonicMs() - plan.startedMs);
  const report = buildReportOfReported(
    {
      run_id: runId,
      suite: suite.config.suite,
      parley_version: PARLEY_VERSION,
      mode: plan.mode,
      strict: options.strict ?? false,
      started_at: plan.startedAt.toISOString(),
      finished_at: finishedAt.toISOString(),
      duration_ms: durationMs,
      git_sha: gitSha,
      config_fingerprint: plan.fingerprint,
      ...(executed.interruptedBy !== undefined
        ? {
            interrupted: executed.interruptedBy,
            unfinished_cost: executed.unfinishedCost,
            ...(dependencies.parleyCommand ? { parley_command: dependencies.parleyCommand() } : {}),
          }
        : {}),
      planned: plan.gate.scenarios.length,
      ...(executed.budget ? { budget: executed.budget } : {}),
      ...(judge ? { judge } : {}),
      ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
      ...(plan.gate.selection ? { selection: plan.gate.selection } : {}),
      ...(plan.gate.baseline ? { baseline: plan.gate.baseline.source } : {}),
      ...(plan.gate.baseline || warnings.length > 0 ? { warnings } : {}),
      // Scenarios marked flaky in triage (`parley tui`): the reports say so beside them.
      flaky_marks: run.store.flakyMarks(suite.config.suite),
      ...(agents && agents.length > 1 ? { comparison: compareAgents(executed.compared, agents, options.seed !== undefined ? { seed: options.seed } : {}) } : {}),
    },
    executed.results,
    run.redactor,
  );
  return { report, gitSha, finishedAt, durationMs };
}
