import { resolve } from 'node:path';
import { defaultStorePath, openStore, storeExists } from '@parley/store';
import { loadSuiteForRun } from './load-suite-for-run.js';
import type { RunDependencies, RunOptions } from './run-options.js';

/** What `--last-failed` finds in the run history for one suite. */
export type LastFailed =
  | { kind: 'no-run' }
  | { kind: 'no-failures'; runId: string }
  | {
      kind: 'cases';
      runId: string;
      caseIds: string[];
      /** The agents that run compared (`--agent`, `matrix.agents`): its `<scenario>@<agent>` cases exist only in such a run. */
      agents?: string[];
    };

/**
 * The cases (`fail` or `error`) of the latest finished run of `suite` in the store. An interrupted
 * run is not finished: its missing cases would read as passes. A missing store means no run yet;
 * it is not created just to be read.
 */
export function lastFailedCases(storePath: string, suite: string): LastFailed {
  if (!storeExists(storePath)) return { kind: 'no-run' };
  const store = openStore(storePath);
  try {
    const run = store.listRuns({ suite }).find((row) => row.finished && row.status !== 'interrupted');
    if (run === undefined) return { kind: 'no-run' };
    const caseIds = store
      .getScenarioResults(run.id)
      .filter((result) => result.status === 'fail' || result.status === 'error')
      .map((result) => result.scenario_id);
    if (caseIds.length === 0) return { kind: 'no-failures', runId: run.id };
    const agents = run.options['agents'];
    const compared = Array.isArray(agents) && agents.every((agent) => typeof agent === 'string') ? (agents as string[]) : undefined;
    return { kind: 'cases', runId: run.id, caseIds, ...(compared && compared.length > 0 ? { agents: compared } : {}) };
  } finally {
    store.close();
  }
}

/** `--last-failed` for a run with these options: the suite's name is read from its parley.yaml. */
export function lastFailedForRun(options: RunOptions, dependencies: Pick<RunDependencies, 'cwd'>): LastFailed {
  const { cwd } = dependencies;
  const storePath = options.storePath !== undefined ? resolve(cwd, options.storePath) : defaultStorePath(cwd);
  return lastFailedCases(storePath, loadSuiteForRun(resolve(cwd, options.suitePath)).config.suite);
}
