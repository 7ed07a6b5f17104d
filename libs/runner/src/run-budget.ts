import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readConfigFile, SUITE_FILE_NAME, SuiteSchema } from '@parley/config';
import { defaultStorePath } from '@parley/store';
import { budgetLimit, shardBudget } from './budget.js';
import { loadResumeState } from './resume-run.js';
import { sharedBudgetKey } from './shared-budget-counter.js';
import type { RunOptions } from './run-options.js';

/** The spending limit a run holds to, and what counts against it before the run starts. */
export interface RunBudget {
  limitUsd: number;
  /** Spent by the results a resumed run kept from before it was interrupted (0 for a new run). */
  spentBeforeUsd: number;
}

export type RunBudgetOptions = Pick<RunOptions, 'suitePath' | 'budgetUsd' | 'resume' | 'storePath' | 'shard' | 'budgetPerShard' | 'budgetKey'>;

/**
 * The budget `runSuite` will give this run, for views that show spend against it while the run
 * goes (the live run view): `--budget`, else `PARLEY_BUDGET_USD`, else `settings.budget_usd`; a
 * resumed run keeps the flags it was started with, and what it had spent counts. Reads parley.yaml
 * only, not the scenarios. Undefined when no budget applies or the suite cannot be read (the run
 * itself then stops with the ConfigError that says why).
 *
 * @example runBudget({ suitePath: 'examples/booking' }, { cwd, env: {} }) // { limitUsd: 1, spentBeforeUsd: 0 }
 * @throws ConfigError when PARLEY_BUDGET_USD is not an amount, or `--resume` names no interrupted run (as runSuite does)
 */
export function runBudget(options: RunBudgetOptions, dependencies: { cwd: string; env: NodeJS.ProcessEnv }): RunBudget | undefined {
  const storePath = options.storePath !== undefined ? resolve(dependencies.cwd, options.storePath) : defaultStorePath(dependencies.cwd);
  const resumed = options.resume !== undefined ? loadResumeState(storePath, options.resume, dependencies.cwd) : undefined;
  const flag = resumed?.options.budgetUsd ?? options.budgetUsd;
  const suitePath = resolve(dependencies.cwd, resumed?.options.suitePath ?? options.suitePath);
  const given = budgetLimit(flag, dependencies.env, suiteBudgetSetting(suitePath));
  const perShard = resumed?.options.budgetPerShard ?? options.budgetPerShard;
  // Shards holding to one budget key share the whole budget (shared-budget-counter.ts), not budget / N each.
  const shared = given !== undefined && sharedBudgetKey({ ...options, ...(perShard ? { budgetPerShard: true } : {}), ...((resumed?.options.budgetKey ?? options.budgetKey) !== undefined ? { budgetKey: resumed?.options.budgetKey ?? options.budgetKey } : {}) }, dependencies.env, suiteName(suitePath)) !== undefined;
  const limit = shared ? { limitUsd: given } : shardBudget(given, options.shard, perShard);
  if (limit === undefined) return undefined;
  const limitUsd = limit.limitUsd;
  const spentBeforeUsd = (resumed?.previous ?? []).reduce((sum, result) => sum + (result.cost.usd ?? 0), 0);
  return { limitUsd, spentBeforeUsd };
}

/** `settings.budget_usd` of the suite at this folder or parley.yaml; undefined when unset or unreadable. */
function suiteBudgetSetting(suitePath: string): number | undefined {
  return suiteFile(suitePath)?.settings?.budget_usd;
}

/** The suite's name (`suite:`), '' when unreadable. */
function suiteName(suitePath: string): string {
  return suiteFile(suitePath)?.suite ?? '';
}

function suiteFile(suitePath: string) {
  let file = suitePath;
  try {
    if (statSync(suitePath).isDirectory()) file = join(suitePath, SUITE_FILE_NAME);
  } catch {
    return undefined;
  }
  return readConfigFile(file, SuiteSchema, { format: 'yaml' }).data;
}
