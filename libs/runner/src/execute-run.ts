import { setMaxListeners } from 'node:events';
import { relative, sep } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { addCost, emptyCost, scenarioOfCase, type CostSummary, type InterruptSignal, type ScenarioResult } from '@parley/core';
import type { LoadedScenario, LoadedSuite } from '@parley/config';
import { ModuleMetricThreads } from '@parley/engine';
import type { CrossCheckPair } from '@parley/judge';
import { preloadRecording, recordingPath, type CallRecord } from '@parley/providers';
import { redactResultContent, reportedResult, type BudgetReport, type JudgeReport, type ReportInput, type ReportResult } from '@parley/reports';
import type { ModelSpend } from '@parley/store';
import { budgetRerunCommand } from './budget-rerun.js';
import { cutShortByBudget, erroredBySweep, liveRunParts, skippedForBudget, type LiveRunParts } from './live-run.js';
import type { OpenRun } from './open-run.js';
import type { RunPlan } from './plan-run.js';
import { runRepeated } from './repeat-scenario.js';
import { recordingKeeper, rerecordingsDir } from './rerecording.js';
import { RunJudging } from './run-judging.js';
import { DEFAULT_CONCURRENCY, type RunDependencies } from './run-options.js';
import { runScenario, summariseCost, type ScenarioRunContext } from './scenario-run.js';
import { recordingsDir } from './suite-paths.js';
import { newSession } from './session.js';

/** What the scenarios of a run came to, handed to the gate and report phases. */
export interface ExecutedRun {
  /**
   * Every result of the run (a resumed run's earlier ones first), redacted once and put in the
   * report's form as it finished (`reportedResult`): held once until the reports are written.
   */
  results: ReportResult[];
  /** A comparison run's results, redacted, for the side-by-side of its agents (empty otherwise). */
  compared: ReportInput[];
  /** The results' scores as they are (metric details unredacted): only kept for `--export-baseline`. */
  scored: Array<Pick<ScenarioResult, 'scenario_id' | 'metrics'>>;
  /** The budget section of the report, when a budget applied (the judging's downgrades first). */
  budget: BudgetReport | undefined;
  /** What the run paid each model, for `parley cost`. */
  spend: ModelSpend[];
  /** The judges' report and the cross-check pairs its agreement is computed from. */
  judging: { report: JudgeReport | undefined; crossCheckPairs: readonly CrossCheckPair[] };
  /** The signal that stopped the run, when one did. */
  interruptedBy: InterruptSignal | undefined;
  /** What the calls of scenarios cut short by the signal cost (they have no result). */
  unfinishedCost: CostSummary;
}

/**
 * The execute phase: the isolation sweep, then every pending scenario with bounded concurrency,
 * each stored and announced as it finishes. A bad file or a full disk in one scenario (a
 * ConfigError) stops the run from starting more; the scenarios in flight finish (and tear down)
 * before the run ends with it (exit 2).
 */
export async function executeRun(plan: RunPlan, run: OpenRun, dependencies: RunDependencies): Promise<ExecutedRun> {
  const { options, suite, mode } = plan;
  const previous = withVariantValues(plan.resumed?.previous ?? [], suite.scenarios);
  const exporting = options.exportBaseline !== undefined;
  const comparing = plan.agents !== undefined && plan.agents.length > 1;
  const files = scenarioFiles(suite, dependencies.cwd);
  const results: ReportResult[] = [];
  const compared: ReportInput[] = [];
  const keep = (redacted: ReportInput): void => {
    results.push(reportedResult(redacted, files.get(redacted.scenario_id)));
    if (comparing) compared.push(redacted);
  };
  for (const result of previous) keep(redactResultContent(result, run.redactor));
  const scored: ExecutedRun['scored'] = exporting ? [...previous] : [];
  const finish = (result: ScenarioResult, reported: ReportInput = result): void => {
    const redacted = redactResultContent(reported, run.redactor);
    keep(redacted);
    if (exporting) scored.push({ scenario_id: reported.scenario_id, metrics: reported.metrics });
    run.saves.save(result);
    run.emitFinished(result, redacted);
  };

  // Calls of a scenario that Ctrl-C cuts short were answered and billed: they count in the run's cost.
  let unfinishedCost = emptyCost();
  const live = liveRunParts(suite, mode, options, dependencies, previous, plan.storePath);
  const sweepFailure = await live.sweep(plan.runId, options.signal);
  const judging = RunJudging.create({
    suite,
    mode,
    flags: options,
    storePath: plan.storePath,
    scenarios: suite.scenarios,
    runScenarioIds: plan.gate.scenarios.map((scenario) => scenario.data.id),
    ...(live.budget ? { budget: live.budget } : {}),
    clock: dependencies.clock,
    secrets: run.secrets,
  });
  // One worker thread per module metric for the whole run, ended below however the run ends.
  const codeMetricThreads = new ModuleMetricThreads();
  try {
    const context = { ...scenarioRunContext(plan, run, dependencies, live, judging), codeMetricThreads };
    const runOne = async (scenario: LoadedScenario): Promise<void> => {
      if (sweepFailure) return finish(erroredBySweep(scenario, sweepFailure));
      // Reserves the scenario's estimate before it starts (budget.ts); not started when it does not fit.
      const budget = live.budget?.openScenario();
      if (live.budget && budget === undefined) return finish(skippedForBudget(scenario, live.budget));
      const id = scenario.data.id;
      run.emit({ type: 'scenario_started', run_id: plan.runId, scenario_id: id });
      // Replayed calls read the recording: parse it once for the conversation and its judges.
      const release = mode === 'replay' || options.judgeMode === 'replay' ? preloadRecording(recordingPath(recordingsDir(suite), id)) : undefined;
      const calls: CallRecord[] = [];
      const onCall: ScenarioRunContext['onCall'] = (call, usd) => {
        calls.push(call);
        context.onCall?.(call, usd);
      };
      const cutShort = (): void => {
        unfinishedCost = addCost(unfinishedCost, summariseCost(calls, suite.config.pricing));
      };
      let repeated: Awaited<ReturnType<typeof runRepeated>>;
      try {
        repeated = await runRepeated(
          options.repeat ?? 1,
          (attempt, cassette) =>
            runScenario(scenario, newSession(plan.runId, id, dependencies.random), {
              ...context,
              onCall,
              ...(budget ? { budget } : {}),
              ...(cassette ? { cassette, attempt } : {}),
              onTurn: (turn) => run.emit({ type: 'turn_completed', run_id: plan.runId, scenario_id: id, turn }),
            }),
          { ...(options.signal ? { signal: options.signal } : {}), onAttempt: (attempt, result) => run.store.saveScenarioResult(plan.runId, result, attempt) },
        );
      } finally {
        budget?.close(); // what is left of its reservation goes back to the budget
      }
      release?.();
      if (repeated === null) return cutShort(); // Ctrl-C stopped its attempts: not a finished result
      const result = budget?.refused !== undefined && live.budget ? cutShortByBudget(repeated.result, scenario.gate === 'blocking', budget.refused, live.budget) : repeated.result;
      if (options.signal?.aborted && result.status === 'error') return cutShort(); // cut short by Ctrl-C: not a finished result
      finish(result, repeated.attempts ? { ...result, attempts: repeated.attempts } : result);
    };

    const concurrency = Math.max(1, options.concurrency ?? suite.config.settings?.concurrency ?? DEFAULT_CONCURRENCY);
    // Every call in flight listens to the run's signal (Ctrl-C aborts it): many at once is expected, not a leak.
    if (options.signal) setMaxListeners(0, options.signal);
    let fatal: { error: unknown } | undefined;
    // `concurrency` workers take the scenarios in order, each the next one as it finishes one: no
    // promise or closure waits per scenario (10,000 of them held ~7 MB before the first result).
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < plan.pending.length) {
        const scenario = plan.pending[next]!;
        next += 1;
        // A replayed scenario never waits on the network: without a turn of the event loop
        // between scenarios a Ctrl-C or SIGTERM would only be heard after the last one.
        await nextTurn();
        if (fatal !== undefined || options.signal?.aborted) return;
        try {
          await runOne(scenario);
        } catch (error) {
          fatal ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, plan.pending.length) }, worker));

    run.saves.close();
    if (fatal !== undefined) throw fatal.error;
    // The event log stopped at its last whole line (a full disk): the run cannot vouch for its outputs.
    if (run.eventLogFailure !== undefined) throw run.eventLogFailure;
    return {
      results,
      compared,
      scored,
      ...budgetAndSpend(live, judging, budgetRerunCommand(plan, live.budget?.leftOut() ?? [], dependencies.parleyCommand)),
      judging: { report: judging.judgeRun?.report(), crossCheckPairs: judging.judgeRun?.crossCheckPairs() ?? [] },
      interruptedBy: options.signal?.aborted ? interruptSignalOf(options.signal) : undefined,
      unfinishedCost,
    };
  } finally {
    judging.close();
    live.budget?.close(); // a shared budget gets back what this run still held
    await codeMetricThreads.close();
  }
}

/** What every scenario of the run shares: the judging, the live-call parts, the gating and the recording keeper. */
function scenarioRunContext(plan: RunPlan, run: OpenRun, dependencies: RunDependencies, live: LiveRunParts, judging: RunJudging): ScenarioRunContext {
  const { suite, mode, options } = plan;
  return {
    judging,
    ...live.context,
    suite,
    mode,
    clock: dependencies.clock,
    // A plain copy: every scenario spreads it into its hooks' environment, and spreading
    // process.env itself costs a call into Node per variable.
    env: { ...dependencies.env },
    secrets: (text: string) => run.secrets.text(text),
    ...(dependencies.parleyCommand ? { parleyCommand: dependencies.parleyCommand } : {}),
    ...(dependencies.liveProvider ? { liveProvider: dependencies.liveProvider } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(plan.gate.baseline ? { gateMetrics: plan.gate.baseline.gateMetrics } : {}),
    // Live and record runs keep each scenario's recording beside the history for triage (rerecording.ts).
    ...(mode !== 'replay'
      ? {
          recordingKeeper: recordingKeeper({
            mode,
            recordingsDir: recordingsDir(suite),
            keepDir: rerecordingsDir(plan.storePath, plan.runId),
            resumed: plan.resumed !== undefined,
            secrets: (text) => run.secrets.text(text),
          }),
        }
      : {}),
  };
}

/** The budget section with what the judging gave up first (the cross-check), then what the run gave up; and the spend per model. */
function budgetAndSpend(live: LiveRunParts, judging: RunJudging, rerun: string | undefined): Pick<ExecutedRun, 'budget' | 'spend'> {
  const downgrades = judging.budgetDowngrades();
  const report = live.budget?.report();
  const budget = report === undefined || rerun === undefined ? report : { ...report, rerun };
  return {
    budget: budget === undefined || downgrades.length === 0 ? budget : { ...budget, downgrades: [...downgrades, ...budget.downgrades] },
    spend: live.spend.spend(),
  };
}

/** Scenario id → its file relative to the run's folder, as CI tools want paths (`/` separators). */
function scenarioFiles(suite: LoadedSuite, cwd: string): Map<string, string> {
  return new Map(suite.scenarios.map((scenario) => [scenario.data.id, relative(cwd, scenario.file).split(sep).join('/')]));
}

/** SIGTERM when the signal was aborted with that reason (the CLI does so on SIGTERM), else Ctrl-C. */
function interruptSignalOf(signal: AbortSignal): InterruptSignal {
  return signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
}

/**
 * The store keeps no variant values: the results a resumed run carries over get theirs from the
 * suite's cases (a comparison case, `<variant>@<agent>`, from its variant's).
 */
function withVariantValues(results: readonly ScenarioResult[], scenarios: readonly LoadedScenario[]): ScenarioResult[] {
  const values = new Map(scenarios.flatMap((scenario) => (scenario.variant !== undefined ? [[scenario.data.id, scenario.variant.vars] as const] : [])));
  return results.map((result) => {
    const vars = values.get(scenarioOfCase(result.scenario_id));
    return vars === undefined || result.vars !== undefined ? result : { ...result, vars: { ...vars } };
  });
}
