import { defaultHistoryRetention, pruneHistory } from '@parley/store';
import type { OpenRun } from './open-run.js';
import type { RunPlan } from './plan-run.js';
import type { RunDependencies, RunOutcome } from './run-options.js';

/**
 * The most runs the prune after a run removes: a history far over its limit (a first run after
 * lowering `settings.history`, years of runs) is worked off 50 runs a time (each report folder is a few milliseconds of file system work) instead of
 * holding up the run that found it; `parley runs prune` removes the rest at once.
 */
const maxRunsPrunedAfterRun = 50;

/**
 * Applies the suite's `settings.history` after a finished run (not after an interrupted one:
 * Ctrl-C should end the process promptly). The run itself is always kept.
 * A prune that fails leaves the run's outcome alone: it is reported, and the next run tries again.
 */
export function pruneAfterRun(plan: RunPlan, run: OpenRun, dependencies: RunDependencies): RunOutcome['history_pruned'] {
  const startedMs = dependencies.clock.monotonicMs();
  try {
    const outcome = pruneHistory(run.store, {
      suite: plan.suite.config.suite,
      retention: plan.suite.config.settings?.history ?? defaultHistoryRetention,
      now: dependencies.clock.now(),
      // A resumed run keeps the start of its first part, which may be older than keep_days.
      keep: [plan.runId],
      maxRuns: maxRunsPrunedAfterRun,
    });
    return {
      runs: outcome.runs.length,
      folders: outcome.folders.removed,
      deferred: outcome.deferred,
      compacted: outcome.database.compacted,
      duration_ms: Math.round(dependencies.clock.monotonicMs() - startedMs),
    };
  } catch (error) {
    return { runs: 0, folders: 0, deferred: 0, compacted: false, duration_ms: Math.round(dependencies.clock.monotonicMs() - startedMs), error: error instanceof Error ? error.message : String(error) };
  }
}
