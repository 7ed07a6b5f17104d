import { resolve } from 'node:path';
import { buildBaseline } from '@parley/gate';
import { writeRunHtml } from '@parley/html-report';
import { writeReports } from '@parley/reports';
import { openModelSpend, type ModelSpend } from '@parley/store';
import { writeBaselineFile } from './baseline-gating.js';
import type { ExecutedRun } from './execute-run.js';
import type { RunVerdict } from './gate-run.js';
import type { OpenRun } from './open-run.js';
import { pruneAfterRun } from './prune-after-run.js';
import type { RunPlan } from './plan-run.js';
import { PARLEY_VERSION, type RunDependencies, type RunOutcome } from './run-options.js';

/**
 * The report phase: writes report.json, junit.xml, summary.md and report.html (and the step summary), adds the
 * spend per model and the run's end to the history, announces `run_finished`, and writes the
 * baseline `--export-baseline` asked for (not for an interrupted run: its scores are partial).
 */
export function reportRun(plan: RunPlan, run: OpenRun, executed: ExecutedRun, verdict: RunVerdict, dependencies: RunDependencies): RunOutcome {
  const { options, runId } = plan;
  const { report } = verdict;
  writeReports(plan.outDir, report, options.githubStepSummary ? { githubStepSummary: options.githubStepSummary } : {});
  writeRunHtml(plan.outDir, report);
  saveModelSpend(plan.storePath, runId, executed.spend);
  run.store.finishRun(runId, {
    status: report.status,
    exit_code: report.exit_code,
    finished_at: report.finished_at,
    duration_ms: verdict.durationMs,
    cost: report.cost,
    counts: report.counts,
    git_sha: verdict.gitSha,
  });
  run.emit({
    type: 'run_finished',
    run_id: runId,
    status: report.status,
    exit_code: report.exit_code,
    counts: report.counts,
    finished_at: report.finished_at,
  });
  const interrupted = executed.interruptedBy !== undefined;
  const exported = options.exportBaseline !== undefined && !interrupted ? exportBaseline(resolve(dependencies.cwd, options.exportBaseline), plan, executed, verdict) : undefined;
  const pruned = interrupted ? undefined : pruneAfterRun(plan, run, dependencies);
  return {
    run_id: runId,
    report,
    exit_code: report.exit_code,
    out_dir: plan.outDir,
    interrupted,
    ...(executed.interruptedBy !== undefined ? { interrupted_by: executed.interruptedBy } : {}),
    suite: plan.suite,
    ...(exported ? { exported_baseline: exported } : {}),
    ...(pruned ? { history_pruned: pruned } : {}),
  };
}

function exportBaseline(file: string, plan: RunPlan, executed: ExecutedRun, verdict: RunVerdict): NonNullable<RunOutcome['exported_baseline']> {
  const baseline = buildBaseline(
    { suite: plan.suite.config.suite, parleyVersion: PARLEY_VERSION, createdAt: verdict.finishedAt.toISOString(), configFingerprint: plan.fingerprint },
    executed.scored,
  );
  writeBaselineFile(file, baseline);
  return { file, entries: baseline.entries.length };
}

/** Adds the run's per-model spend to the store (`parley cost`); nothing to add when it paid nothing. */
function saveModelSpend(storePath: string, runId: string, spend: readonly ModelSpend[]): void {
  if (spend.length === 0) return;
  const spendStore = openModelSpend(storePath);
  try {
    spendStore.add(runId, spend);
  } finally {
    spendStore.close();
  }
}
