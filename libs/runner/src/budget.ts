import { parseUsdAmount } from '@parley/core';
import type { Shard } from '@parley/gate';
import type { BudgetReport } from '@parley/reports';

/** Below this, two dollar amounts are the same (sums of float prices). */
const EPSILON_USD = 1e-12;

/**
 * The run's spending limit (`--budget`, else `PARLEY_BUDGET_USD`, else `settings.budget_usd`),
 * held by reservation so that the run never spends more than it (docs/gating.md, "Budget"):
 *
 * - Before a scenario starts it reserves its estimate (the costliest scenario of the run so far;
 *   nothing for the first ones). A scenario whose estimate does not fit beside what is spent and
 *   what the scenarios in flight hold is not started (reason: budget).
 * - Before each call to a provider the scenario holds the call's worst case (callWorstCaseUsd:
 *   every input byte a token, the whole `max_tokens` answered), from its reservation first and
 *   from what is left of the budget for the rest. A call whose worst case does not fit is not
 *   sent: the scenario is cut short (reason: budget), never the limit.
 * - When a call is answered its hold becomes what it actually cost; when the scenario ends the rest
 *   of its reservation is released. `spent + held` never exceeds the limit.
 *
 * Calls whose model has no known price cannot be counted: the report's cost is then "unknown" and says so.
 */
export class BudgetTracker {
  /** What this run spent (with a shared counter, the other runs' spend is not in it). */
  private spent: number;
  private readonly counter: BudgetCounter;
  private readonly skippedIds: string[] = [];
  private readonly cutShortIds: string[] = [];
  private uncheckedBlocking = 0;
  private unpricedCalls = 0;
  private costliestScenarioUsd = 0;
  private readonly estimates = { scenarios: 0, estimated_usd: 0, actual_usd: 0 };

  constructor(
    readonly limitUsd: number,
    alreadySpentUsd = 0,
    /** Set when the limit is this shard's share of a budget for the whole PR (`--shard I/N`). */
    private readonly split?: BudgetSplit,
    /**
     * Where spent and held amounts are counted: by default in this process; a SharedBudgetCounter
     * counts them in the store, for every run holding to the same budget key (the shards of a PR).
     */
    counter?: BudgetCounter,
  ) {
    this.spent = alreadySpentUsd;
    this.counter = counter ?? new LocalBudgetCounter(alreadySpentUsd);
  }

  /** A call to a model without a known price: not counted, and the report says how many. */
  addUnpricedCall(): void {
    this.unpricedCalls += 1;
  }

  /** What was spent against the limit: by this run, or with a shared budget by every run holding to it. */
  get spentUsd(): number {
    return this.counter.spentUsd();
  }

  /** What scenarios in flight hold: their reservations and the worst cases of their calls in flight (of every run sharing the budget). */
  get heldUsd(): number {
    return this.counter.heldUsd();
  }

  get exhausted(): boolean {
    return this.spentUsd >= this.limitUsd - EPSILON_USD;
  }

  /** Gives back what this run still holds of a shared budget and lets its store go (nothing to do for a budget of its own). */
  close(): void {
    this.counter.close();
  }

  /**
   * Reserves a scenario's estimate before it starts; undefined (do not start it) when the budget is
   * reached or the estimate does not fit beside what is spent and held.
   */
  openScenario(): ScenarioBudget | undefined {
    const estimate = this.costliestScenarioUsd;
    if (this.exhausted || !this.hold(estimate)) return undefined;
    return new ScenarioBudget(this, estimate);
  }

  /** @internal Holds `usd` more when it fits under the limit. */
  hold(usd: number): boolean {
    return this.counter.hold(usd, this.limitUsd);
  }

  /** @internal Lets go of `releasedUsd` held and counts `spentUsd` spent (an answered call: its worst case and its cost). */
  settle(releasedUsd: number, spentUsd: number): void {
    this.counter.settle(releasedUsd, spentUsd);
    this.spent += spentUsd;
  }

  /** @internal A scenario ended: how its estimate compared with what it spent. */
  scenarioEnded(estimateUsd: number, actualUsd: number): void {
    this.estimates.scenarios += 1;
    this.estimates.estimated_usd += estimateUsd;
    this.estimates.actual_usd += actualUsd;
    this.costliestScenarioUsd = Math.max(this.costliestScenarioUsd, actualUsd);
  }

  /**
   * Records a scenario given up for the budget; returns the reason its result carries. A blocking
   * one went unchecked: its result is `warn`, and the report counts it.
   */
  skip(scenarioId: string, blocking = false): string {
    this.skippedIds.push(scenarioId);
    if (blocking) this.uncheckedBlocking += 1;
    const fits = this.exhausted ? '' : `; with $${this.heldUsd.toFixed(4)} held by scenarios in flight, this scenario's estimate of $${this.costliestScenarioUsd.toFixed(4)} (the costliest so far) does not fit`;
    const reached = `budget reached ($${this.spentUsd.toFixed(4)} spent of $${this.limitUsd.toFixed(4)}${fits}) before this scenario started`;
    return blocking ? `not checked: ${reached}; a blocking scenario that did not run did not pass` : `skipped: ${reached}`;
  }

  /** Records a scenario stopped part-way because its next call's worst case did not fit; returns the reason its result carries. */
  cutShort(scenarioId: string, why: string, blocking = false): string {
    this.cutShortIds.push(scenarioId);
    if (blocking) this.uncheckedBlocking += 1;
    const reached = `budget reached during this scenario: ${why}`;
    return blocking ? `not checked: ${reached}; a blocking scenario that did not finish did not pass` : `skipped: ${reached}`;
  }

  /** The scenarios given up for the budget (skipped or cut short), sorted. */
  leftOut(): string[] {
    return [...this.skippedIds, ...this.cutShortIds].sort();
  }

  /** The report's `budget` section: the limit, whether it was reached, and what it made Parley give up. */
  report(): BudgetReport {
    const downgrades: string[] = [];
    if (this.skippedIds.length > 0) {
      const ids = [...this.skippedIds].sort();
      const shown = ids.slice(0, 20).join(', ') + (ids.length > 20 ? `, … ${ids.length - 20} more` : '');
      downgrades.push(`${ids.length} scenario${ids.length === 1 ? '' : 's'} skipped (not started once the budget was reached): ${shown}`);
    }
    if (this.cutShortIds.length > 0) {
      const ids = [...this.cutShortIds].sort();
      downgrades.push(`${ids.length} scenario${ids.length === 1 ? '' : 's'} cut short (the next call's worst case did not fit the budget): ${ids.join(', ')}`);
    }
    if (this.uncheckedBlocking > 0) {
      const count = this.uncheckedBlocking;
      downgrades.push(`${count} blocking scenario${count === 1 ? '' : 's'} unchecked: ${count === 1 ? 'it is' : 'each is'} warn, which fails the run under --strict`);
    }
    if (this.unpricedCalls > 0) {
      downgrades.push(`${this.unpricedCalls} call${this.unpricedCalls === 1 ? '' : 's'} to models without a known price not counted against the budget (add them under pricing:)`);
    }
    return {
      // Reached, or near enough that it stopped a scenario.
      limit_usd: this.limitUsd,
      exhausted: this.exhausted || this.skippedIds.length > 0 || this.cutShortIds.length > 0,
      downgrades,
      unchecked_blocking: this.uncheckedBlocking,
      spent_usd: this.spent,
      estimate: { ...this.estimates },
      ...(this.split ? { split: { ...this.split } } : {}),
      ...(this.counter.key !== undefined ? { shared: { key: this.counter.key, spent_usd: this.counter.spentUsd() } } : {}),
    };
  }
}

/**
 * Where a budget's spent and held amounts are counted. `hold` adds `usd` to what is held only when
 * spent + held + usd stays within `limitUsd`, in one step no other holder can come between.
 */
export interface BudgetCounter {
  /** The shared budget's key; undefined for a run's own budget. */
  readonly key?: string;
  hold(usd: number, limitUsd: number): boolean;
  settle(releasedUsd: number, spentUsd: number): void;
  spentUsd(): number;
  heldUsd(): number;
  close(): void;
}

/** A run's budget of its own, counted in this process. */
export class LocalBudgetCounter implements BudgetCounter {
  private held = 0;

  constructor(private spent = 0) {}

  hold(usd: number, limitUsd: number): boolean {
    if (this.spent + this.held + usd > limitUsd + EPSILON_USD) return false;
    this.held += usd;
    return true;
  }

  settle(releasedUsd: number, spentUsd: number): void {
    this.held = Math.max(0, this.held - releasedUsd);
    this.spent += spentUsd;
  }

  spentUsd(): number {
    return this.spent;
  }

  heldUsd(): number {
    return this.held;
  }

  close(): void {}
}

/**
 * One scenario's part of the budget: its reservation, from which its calls hold their worst case
 * (more is held from the budget when a call needs it). Closed when the scenario ends.
 */
export class ScenarioBudget {
  private available: number;
  private spent = 0;
  private closed = false;
  /** Why a call was not sent, once one was refused. */
  refused: string | undefined;

  constructor(
    private readonly tracker: BudgetTracker,
    readonly estimateUsd: number,
  ) {
    this.available = estimateUsd;
  }

  /** Before a call: holds its worst case; false (remembering why, naming `call` when given) when it does not fit the budget. */
  holdCall(worstUsd: number, call?: string): boolean {
    if (worstUsd <= this.available) {
      this.available -= worstUsd;
      return true;
    }
    if (this.tracker.hold(worstUsd - this.available)) {
      this.available = 0;
      return true;
    }
    this.refused ??= `a call's worst case of $${worstUsd.toFixed(4)}${call === undefined ? '' : ` (${call})`} did not fit ($${this.tracker.spentUsd.toFixed(4)} spent and $${this.tracker.heldUsd.toFixed(4)} held of $${this.tracker.limitUsd.toFixed(4)})`;
    return false;
  }

  /** After a call held with holdCall: its hold becomes what it cost (null: no known price; 0 when it failed). */
  settleCall(worstUsd: number, usd: number | null): void {
    if (usd === null) this.tracker.addUnpricedCall();
    this.tracker.settle(worstUsd, usd ?? 0);
    this.spent += usd ?? 0;
  }

  /** A call to a model without a known price (nothing to hold). */
  unpricedCall(): void {
    this.tracker.addUnpricedCall();
  }

  /** The scenario ended: the rest of its reservation goes back to the budget. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.tracker.settle(this.available, 0);
    this.available = 0;
    this.tracker.scenarioEnded(this.estimateUsd, this.spent);
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
  if (fromEnv !== undefined && fromEnv.trim() !== '') return parseUsdAmount(fromEnv, 'PARLEY_BUDGET_USD');
  return suiteSetting;
}
