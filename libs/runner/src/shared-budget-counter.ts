import type { Shard } from '@parley/gate';
import { budgetState, openSql, reserveBudget, settleBudget, storeUrlFrom, type SyncSql } from '@parley/store';
import type { BudgetCounter } from './budget.js';

/** The environment variable naming the budget several runs share (`--budget-key`). */
const budgetKeyVariable = 'PARLEY_BUDGET_KEY';

/**
 * The key of the budget this run shares with others (docs/gating.md, "Budget"), or undefined for a
 * budget of its own. `--budget-key`, else PARLEY_BUDGET_KEY; else, for a shard (`--shard I/N`) of a
 * CI run writing to a team store (PARLEY_DATABASE_URL), one key every shard of that CI run derives
 * alike (CI_RUNS: GitHub Actions' run id and attempt, GitLab's pipeline id, …), with the suite and N. A local
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
  const ciRun = CI_RUNS.find((ci) => (env[ci.id] ?? '') !== '');
  return ciRun === undefined ? undefined : `${ciRun.name}:${ciRun.parts.map((part) => env[part] ?? (part === 'GITHUB_RUN_ATTEMPT' ? '1' : '')).join(':')}:${suite}:${shard.total}`;
}

/**
 * The CI systems whose shards derive one budget key, each by its documented variables: `id`
 * names the run every parallel job of it shares, `parts` the key's fields (the project first).
 * A re-run makes a new key where the system gives a re-run a new id (GitHub's attempt, CircleCI's
 * workflow, GitLab's pipeline, Bitbucket's build, Jenkins' build); a job retried within the same
 * Buildkite build or Azure Pipelines run holds to what that run already spent.
 */
const CI_RUNS: ReadonlyArray<{ name: string; id: string; parts: readonly string[] }> = [
  { name: 'github', id: 'GITHUB_RUN_ID', parts: ['GITHUB_REPOSITORY', 'GITHUB_RUN_ID', 'GITHUB_RUN_ATTEMPT'] },
  { name: 'gitlab', id: 'CI_PIPELINE_ID', parts: ['CI_PROJECT_PATH', 'CI_PIPELINE_ID'] },
  { name: 'circleci', id: 'CIRCLE_WORKFLOW_ID', parts: ['CIRCLE_PROJECT_USERNAME', 'CIRCLE_PROJECT_REPONAME', 'CIRCLE_WORKFLOW_ID'] },
  { name: 'buildkite', id: 'BUILDKITE_BUILD_ID', parts: ['BUILDKITE_PIPELINE_SLUG', 'BUILDKITE_BUILD_ID'] },
  { name: 'azure', id: 'BUILD_BUILDID', parts: ['SYSTEM_TEAMPROJECT', 'BUILD_BUILDID'] },
  { name: 'bitbucket', id: 'BITBUCKET_BUILD_NUMBER', parts: ['BITBUCKET_REPO_FULL_NAME', 'BITBUCKET_BUILD_NUMBER'] },
  { name: 'jenkins', id: 'BUILD_TAG', parts: ['BUILD_TAG'] },
];

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
