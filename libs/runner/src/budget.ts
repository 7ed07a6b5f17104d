import { ConfigError } from '@parley/core';
import type { Shard } from '@parley/gate';
import type { BudgetReport } from '@parley/reports';

/**
 * The run's spending limit (`--budget`, else `PARLEY_BUDGET_USD`, else `settings.budget_usd`).
 * Every answered call adds its cost as it happens; once spending reaches the limit, scenarios that
 * have not started are skipped (reason: budget) while the ones in flight finish. Calls whose model
 * has no known price cannot be counted: the report's cost is then "unknown" and says so.
 */
export class BudgetTracker {
  private spent: number;
  private readonly skippedIds: string[] = [];
  private uncheckedBlocking = 0;
  private unpricedCalls = 0;

  constructor(
    readonly limitUsd: number,
    alreadySpentUsd = 0,
    /** Set when the limit is this shard's share of a budget for the whole PR (`--shard I/N`). */
    private readonly split?: BudgetSplit,
  ) {
    this.spent = alreadySpentUsd;
  }

  addCall(usd: number | null): void {
    if (usd === null) this.unpricedCalls += 1;
    else this.spent += usd;
  }

  get spentUsd(): number {
    return this.spent;
  }

  get exhausted(): boolean {
    return this.spent >= this.limitUsd;
  }

  /**
   * Records a scenario given up for the budget; returns the reason its result carries. A blocking
   * one went unchecked: its result is `warn`, and the report counts it.
   */
  skip(scenarioId: string, blocking = false): string {
    this.skippedIds.push(scenarioId);
    if (blocking) this.uncheckedBlocking += 1;
    const reached = `budget reached ($${this.spent.toFixed(4)} spent of $${this.limitUsd.toFixed(4)}) before this scenario started`;
    return blocking ? `not checked: ${reached}; a blocking scenario that did not run did not pass` : `skipped: ${reached}`;
  }

  /** The report's `budget` section: the limit, whether it was reached, and what it made Parley give up. */
  report(): BudgetReport {
    const downgrades: string[] = [];
    if (this.skippedIds.length > 0) {
      const ids = [...this.skippedIds].sort();
      const shown = ids.slice(0, 20).join(', ') + (ids.length > 20 ? `, … ${ids.length - 20} more` : '');
      downgrades.push(`${ids.length} scenario${ids.length === 1 ? '' : 's'} skipped (not started once the budget was reached): ${shown}`);
    }
    if (this.uncheckedBlocking > 0) {
      const count = this.uncheckedBlocking;
      downgrades.push(`${count} blocking scenario${count === 1 ? '' : 's'} unchecked: ${count === 1 ? 'it is' : 'each is'} warn, which fails the run under --strict`);
    }
    if (this.unpricedCalls > 0) {
      downgrades.push(`${this.unpricedCalls} call${this.unpricedCalls === 1 ? '' : 's'} to models without a known price not counted against the budget (add them under pricing:)`);
    }
    return { limit_usd: this.limitUsd, exhausted: this.exhausted, downgrades, unchecked_blocking: this.uncheckedBlocking, ...(this.split ? { split: { ...this.split } } : {}) };
  }
}

/** A budget for the whole PR divided among its shards. */
export interface BudgetSplit {
  /** The budget as given (flag, environment or suite): the PR's. */
  total_usd: number;
  shards: number;
}

/**
 * The limit one run holds to. Under `--shard I/N` the budget in force is the whole PR's (seed
 * practice: $20 a PR), so each shard gets an equal share, budget / N, and the shards together
 * never spend more than the PR may; `--budget-per-shard` gives every shard the whole amount instead.
 *
 * @example shardBudget(20, { index: 1, total: 4 }, false) // { limitUsd: 5, split: { total_usd: 20, shards: 4 } }
 */
export function shardBudget(limit: number | undefined, shard: Shard | undefined, perShard: boolean | undefined): { limitUsd: number; split?: BudgetSplit } | undefined {
  if (limit === undefined) return undefined;
  if (shard === undefined || shard.total <= 1 || perShard) return { limitUsd: limit };
  return { limitUsd: limit / shard.total, split: { total_usd: limit, shards: shard.total } };
}

/** The budget in force: the flag, else the environment, else the suite; undefined when none is set. */
export function budgetLimit(flag: number | undefined, env: NodeJS.ProcessEnv, suiteSetting: number | undefined): number | undefined {
  if (flag !== undefined) return flag;
  const fromEnv = env.PARLEY_BUDGET_USD;
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const value = Number(fromEnv);
    if (!Number.isFinite(value) || value < 0) throw new ConfigError(`PARLEY_BUDGET_USD must be a number of US dollars ≥ 0, got "${fromEnv}"`);
    return value;
  }
  return suiteSetting;
}
