import type { Shard } from '@parley/gate';
import { budgetState, openSql, reserveBudget, settleBudget, storeUrlFrom, type SyncSql } from '@parley/store';
import type { BudgetCounter } from './budget.js';

/** The environment variable naming the budget several runs share (`--budget-key`). */
const budgetKeyVariable = 'PARLEY_BUDGET_KEY';

/**
 * The key of the budget this run shares with others (docs/gating.md, "Budget"), or undefined for a
 * budget of its own. `--budget-key`, else PARLEY_BUDGET_KEY; else, for a shard (`--shard I/N`) of a
 * CI run writing to a team store (PARLEY_DATABASE_URL), one key every shard of that CI run derives
 * alike: GitHub Actions' run id and attempt, or GitLab's pipeline id, with the suite and N. A local
 * SQLite store shares a budget only with an explicit key: shards on other machines have files of
 * their own, and each would take the whole budget. `--budget-per-shard` shares nothing.
 */
export function sharedBudgetKey(
  options: { budgetKey?: string; shard?: Shard; budgetPerShard?: boolean },
  env: NodeJS.ProcessEnv,
  suite: string,
): string | undefined {
  if (options.budgetPerShard) return undefined;
  const explicit = options.budgetKey ?? env[budgetKeyVariable];
  if (explicit !== undefined && explicit.trim() !== '') return explicit.trim();
  const shard = options.shard;
  if (shard === undefined || shard.total <= 1 || storeUrlFrom(env) === undefined) return undefined;
  const ciRun = env.GITHUB_RUN_ID
    ? `github:${env.GITHUB_REPOSITORY ?? ''}:${env.GITHUB_RUN_ID}:${env.GITHUB_RUN_ATTEMPT ?? '1'}`
    : env.CI_PIPELINE_ID
      ? `gitlab:${env.CI_PROJECT_PATH ?? ''}:${env.CI_PIPELINE_ID}`
      : undefined;
  return ciRun === undefined ? undefined : `${ciRun}:${suite}:${shard.total}`;
}

const micros = (usd: number): number => Math.round(usd * 1_000_000);

/**
 * A budget counted in the store's shared_budgets row `key`, which every run holding to the key
 * reserves from and settles into at once (reserveBudget: one conditional UPDATE). What this run
 * holds is tallied here too, so that whatever it still holds when it ends (a call cut short) is
 * given back by close().
 */
export class SharedBudgetCounter implements BudgetCounter {
  private heldMicros = 0;
  private closed = false;
  private readonly sql: SyncSql;

  constructor(
    readonly key: string,
    storePath: string,
  ) {
    this.sql = openSql(storePath);
  }

  hold(usd: number, limitUsd: number): boolean {
    if (!reserveBudget(this.sql, this.key, usd, limitUsd)) return false;
    this.heldMicros += micros(usd);
    return true;
  }

  settle(releasedUsd: number, spentUsd: number): void {
    const released = Math.min(this.heldMicros, micros(releasedUsd));
    this.heldMicros -= released;
    settleBudget(this.sql, this.key, released / 1_000_000, spentUsd);
  }

  spentUsd(): number {
    return budgetState(this.sql, this.key).spentUsd;
  }

  heldUsd(): number {
    return budgetState(this.sql, this.key).reservedUsd;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.heldMicros > 0) settleBudget(this.sql, this.key, this.heldMicros / 1_000_000, 0);
    this.heldMicros = 0;
    this.sql.close();
  }
}
