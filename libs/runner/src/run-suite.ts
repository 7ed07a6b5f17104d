import { resolve } from 'node:path';
import { defaultStorePath, keepStoreLocal } from '@parley/store';
import { executeRun } from './execute-run.js';
import { gateRun } from './gate-run.js';
import { announceRun, openRun } from './open-run.js';
import { planRun } from './plan-run.js';
import { reportRun } from './report-run.js';
import type { RunDependencies, RunOptions, RunOutcome } from './run-options.js';

/**
 * The run orchestrator, as its phases: plan (options, suite, scenarios, every usage error) → open
 * (folder, event log, history) → execute (scenarios, bounded concurrency, each result stored and
 * announced as it finishes) → gate (warnings, judge agreement, the report and its exit code) →
 * report (files, history, `run_finished`, exported baseline). It reports through events and
 * knows nothing about who listens (console, TUI, event log).
 */
export async function runSuite(options: RunOptions, dependencies: RunDependencies): Promise<RunOutcome> {
  if (!options.localStore) return runPhases(options, dependencies);
  const release = keepStoreLocal(options.storePath !== undefined ? resolve(dependencies.cwd, options.storePath) : defaultStorePath(dependencies.cwd));
  try {
    return await runPhases(options, dependencies);
  } finally {
    release();
  }
}

async function runPhases(options: RunOptions, dependencies: RunDependencies): Promise<RunOutcome> {
  const plan = await planRun(options, dependencies);
  const run = openRun(plan, dependencies);
  let announced = false;
  try {
    announceRun(plan, run);
    announced = true;
    const executed = await executeRun(plan, run, dependencies);
    const verdict = await gateRun(plan, run, executed, dependencies);
    return reportRun(plan, run, executed, verdict, dependencies);
  } finally {
    run.close(!announced);
  }
}
