import type { ProviderKind, RunMode, ScenarioResult } from '@parley/core';
import { emptyCost } from '@parley/core';
import type { LoadedScenario, LoadedSuite } from '@parley/config';
import { cacheSavingOfCall, RateLimiter, realSleep } from '@parley/providers';
import { BudgetTracker, budgetLimit, shardBudget } from './budget.js';
import { ModelSpendTally } from './model-spend.js';
import { SharedBudgetCounter, sharedBudgetKey } from './shared-budget-counter.js';
import { runHook, sessionEnv, type HookOutcome } from './isolation-hooks.js';
import type { RunDependencies, RunOptions } from './run-options.js';
import { resultIdentity, type ScenarioRunContext } from './scenario-run.js';

/** The run-wide parts of live calling: shared rate limiters, the budget, and the isolation sweep. */
export interface LiveRunParts {
  context: Pick<ScenarioRunContext, 'limiters' | 'resilience' | 'onCall' | 'liveProviders'>;
  budget: BudgetTracker | undefined;
  /** What the run pays each model (calls that reached a provider), for `parley cost`. */
  spend: ModelSpendTally;
  /** Runs `isolation.sweep` once (not in replay); a failure is returned, to be every scenario's error. */
  sweep(runId: string, signal?: AbortSignal): Promise<{ command: string; outcome: HookOutcome } | undefined>;
}

export function liveRunParts(
  suite: LoadedSuite,
  mode: RunMode,
  options: RunOptions,
  dependencies: RunDependencies,
  finishedResults: readonly ScenarioResult[],
  storePath: string,
): LiveRunParts {
  const settings = suite.config.settings;
  const given = budgetLimit(options.budgetUsd, dependencies.env, settings?.budget_usd);
  // Runs holding to one budget key (the shards of a PR) share the whole budget in the store instead of taking budget / N each.
  const sharedKey = given === undefined ? undefined : sharedBudgetKey(options, dependencies.env, suite.config.suite);
  const limit = sharedKey !== undefined ? { limitUsd: given! } : shardBudget(given, options.shard, options.budgetPerShard);
  const spentBefore = finishedResults.reduce((sum, result) => sum + (result.cost.usd ?? 0), 0);
  const budget =
    limit === undefined
      ? undefined
      : sharedKey !== undefined
        ? new BudgetTracker(limit.limitUsd, spentBefore, undefined, new SharedBudgetCounter(sharedKey, storePath))
        : new BudgetTracker(limit.limitUsd, spentBefore, limit.split);
  const spend = new ModelSpendTally(mode, options.judgeMode);
  const resilience = dependencies.resilience;
  const limiters = new Map<ProviderKind, RateLimiter>();
  for (const [kind, limits] of Object.entries(settings?.rate_limits ?? {}) as Array<[ProviderKind, NonNullable<NonNullable<typeof settings>['rate_limits']>[ProviderKind]]>) {
    if (!limits) continue;
    limiters.set(
      kind,
      new RateLimiter(
        {
          ...(limits.concurrency !== undefined ? { concurrency: limits.concurrency } : {}),
          ...(limits.requests_per_minute !== undefined ? { requestsPerMinute: limits.requests_per_minute } : {}),
          ...(limits.tokens_per_minute !== undefined ? { tokensPerMinute: limits.tokens_per_minute } : {}),
        },
        resilience?.now ?? (() => performance.now()),
        resilience?.sleep ?? realSleep,
      ),
    );
  }
  return {
    context: {
      liveProviders: new Map(),
      ...(limiters.size > 0 ? { limiters } : {}),
      ...(resilience ? { resilience } : {}),
      // The budget counts live calls where they are sent (call-budget.ts): a replayed answer's
      // recorded cost stays in the report as what that call cost, but nothing was paid now.
      onCall: (call, usd) => {
        spend.add(call, usd, usd === null ? null : cacheSavingOfCall(call.model, call.usage, suite.config.pricing));
      },
    },
    budget,
    spend,
    async sweep(runId) {
      const command = suite.config.isolation?.sweep;
      if (!command || mode === 'replay') return undefined;
      const outcome = await runHook(command, { cwd: suite.dir, env: { ...dependencies.env, ...sessionEnv({ run_id: runId }) } });
      return outcome.ok ? undefined : { command, outcome };
    },
  };
}

function notStartedResult(scenario: LoadedScenario): Omit<ScenarioResult, 'status' | 'reason'> {
  return {
    ...resultIdentity(scenario),
    metrics: [],
    cost: emptyCost(),
  };
}

/**
 * A scenario the budget stopped before it started (docs/reference.md, "--budget"), with the reason in the report: a
 * blocking one is `warn` — it did not pass, so `--strict` fails the run — and an advisory one
 * `skipped`.
 */
export function skippedForBudget(scenario: LoadedScenario, budget: BudgetTracker): ScenarioResult {
  const blocking = scenario.gate === 'blocking';
  return { ...notStartedResult(scenario), status: blocking ? 'warn' : 'skipped', reason: budget.skip(scenario.data.id, blocking) };
}

/**
 * A scenario stopped part-way because its next call's worst case did not fit the budget: like one
 * that did not start (blocking `warn`, advisory `skipped`), keeping what it did and spent.
 */
export function cutShortByBudget<T extends ScenarioResult>(result: T, blocking: boolean, why: string, budget: BudgetTracker): T {
  return { ...result, status: blocking ? 'warn' : 'skipped', reason: budget.cutShort(result.scenario_id, why, blocking) };
}

/** A scenario that could not start because the run's isolation sweep failed: `error` with the sweep's output. */
export function erroredBySweep(scenario: LoadedScenario, failure: { command: string; outcome: HookOutcome }): ScenarioResult {
  const message = `isolation sweep "${failure.command}" ${failure.outcome.exit}: no scenario was started`;
  return {
    ...notStartedResult(scenario),
    status: 'error',
    reason: message,
    error: { kind: 'isolation', message, details: failure.outcome.output || '(the hook printed nothing)' },
  };
}
