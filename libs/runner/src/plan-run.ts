import { join, resolve } from 'node:path';
import type { RunMode } from '@parley/core';
import { ConfigError } from '@parley/core';
import { configFingerprint, loadSuiteConfig, missingEnvironmentIssues, type LoadedScenario, type LoadedSuite } from '@parley/config';
import { defaultStorePath, useSuiteStoreSetting } from '@parley/store';
import { budgetLimit } from './budget.js';
import { comparedAgents, withComparisonCases } from './comparison-cases.js';
import { planGate, type GatePlan } from './gate-plan.js';
import { loadSuiteForRun } from './load-suite-for-run.js';
import { loadingSelection, selectCases } from './select-scenarios.js';
import { metricVersions } from './metric-catalog.js';
import { loadResumeState, type ResumeState } from './resume-run.js';
import { refuseResumeOverrides } from './resume-flags.js';
import { newRunId } from './run-id.js';
import { refuseJudgeReplayWhileRecording } from './run-judging.js';
import { PARLEY_VERSION, type RunDependencies, type RunOptions } from './run-options.js';
import { defaultMode } from './suite-paths.js';

/** What a run is to do, decided before it writes anything: every usage error is found here. */
export interface RunPlan {
  /** The flags the run goes by: under `--resume`, the interrupted run's own. */
  options: RunOptions;
  resumed: ResumeState | undefined;
  /** The loaded suite, with one case per compared agent in a comparison run. */
  suite: LoadedSuite;
  /** `--agent` / `matrix.agents`: the agents a comparison run compares. */
  agents: string[] | undefined;
  mode: RunMode;
  /** The suite's own fingerprint, the same whichever agents a run compares: shards and baselines match it. */
  fingerprint: string;
  /** The scenarios that run (after --shard and --changed-since) and the baseline they are gated on. */
  gate: GatePlan;
  /** The planned scenarios not finished before (all of them unless resumed). */
  pending: LoadedScenario[];
  runId: string;
  outDir: string;
  storePath: string;
  /** The folder the run was started in (stored, so that a resume elsewhere finds its relative files). */
  cwd: string;
  startedAt: Date;
  /** The monotonic clock at the start, for the run's duration. */
  startedMs: number;
}

/**
 * The plan phase: the effective options (a resumed run's own), the suite, the mode, the scenarios
 * and the baseline, the run id and folder. Usage errors are found before the run is stored, so a
 * refused run leaves no trace in the history.
 */
export async function planRun(givenOptions: RunOptions, dependencies: RunDependencies): Promise<RunPlan> {
  const { clock, cwd } = dependencies;
  const storePath = givenOptions.storePath !== undefined ? resolve(cwd, givenOptions.storePath) : defaultStorePath(cwd);
  if (givenOptions.resume !== undefined) {
    // The interrupted run is read from the store before the suite is loaded in full: take in
    // the suite's settings.store first. A parley.yaml that does not load is reported by the load below.
    try {
      useSuiteStoreSetting(loadSuiteConfig(resolve(cwd, givenOptions.suitePath)).config.settings?.store);
    } catch {
      useSuiteStoreSetting(undefined);
    }
  }
  const resumed = givenOptions.resume !== undefined ? loadResumeState(storePath, givenOptions.resume, cwd, dependencies.parleyCommand) : undefined;
  if (resumed) refuseResumeOverrides(givenOptions, resumed, cwd);
  const options: RunOptions = resumed ? { ...givenOptions, ...resumed.options } : givenOptions;
  const loaded = loadSuiteForRun(resolve(cwd, options.suitePath), loadingSelection(options));
  const agents = comparedAgents(loaded, options.agents);
  const cases = agents ? withComparisonCases(loaded, agents) : loaded;
  const suite = onlyCases({ ...cases, scenarios: selectCases(cases.scenarios, options) }, options.onlyCases);
  if (options.strict && suite.warnings.length > 0) {
    // --strict: what `parley validate` warns about (e.g. a judge judging its own model) stops the run.
    throw new ConfigError(suite.warnings.map((warning) => ({ ...warning, severity: 'error' as const })));
  }
  if (suite.scenarios.length === 0) {
    throw new ConfigError({ file: suite.file, message: 'no scenario matches the selection (check --scenario / --tag / --exclude / --grep / --last-failed and the scenarios glob)' });
  }
  const mode = options.mode ?? defaultMode(suite);
  refuseJudgeReplayWhileRecording(mode, options.judgeMode);
  // Live and record runs talk to the agents: an unset ${VAR} in an agent's url is a configuration
  // error before anything runs (a replay never calls them, so it does not need the variables).
  if (mode !== 'replay') {
    const missing = missingEnvironmentIssues(suite, dependencies.env);
    if (missing.length > 0) throw new ConfigError(missing);
  }
  const budgetUsd = budgetLimit(options.budgetUsd, dependencies.env, suite.config.settings?.budget_usd);
  refuseIdleBudgetPerShard(options, budgetUsd);
  if (resumed && givenOptions.outDir !== undefined && resolve(cwd, givenOptions.outDir) !== resumed.outDir) {
    throw new ConfigError(`--resume ${resumed.runId} continues the run in its own folder ${resumed.outDir}; leave out --out ${givenOptions.outDir}`);
  }
  const fingerprint = configFingerprint(loaded, metricVersions());
  const gate = await planGate(suite, options, { cwd, fingerprint, parleyVersion: PARLEY_VERSION, ...(dependencies.parleyCommand ? { parleyCommand: dependencies.parleyCommand } : {}) });
  const finishedBefore = new Set(resumed?.previous.map((result) => result.scenario_id));
  const runId = resumed?.runId ?? newRunId(clock, dependencies.random);
  return {
    options,
    resumed,
    suite,
    agents,
    mode,
    fingerprint,
    gate,
    pending: gate.scenarios.filter((scenario) => !finishedBefore.has(scenario.data.id)),
    runId,
    outDir: resumed?.outDir ?? resolve(cwd, options.outDir ?? join('.parley', 'runs', runId)),
    storePath,
    cwd,
    startedAt: resumed?.startedAt ?? clock.now(),
    startedMs: clock.monotonicMs(),
  };
}

/**
 * `--budget-per-shard` changes how a sharded run splits its budget: without `--shard`, or without
 * any budget, it would do nothing, and a team that wrote it expects it to.
 *
 * @throws ConfigError saying what to add or leave out
 */
function refuseIdleBudgetPerShard(options: RunOptions, budgetUsd: number | undefined): void {
  if (!options.budgetPerShard) return;
  if (options.shard === undefined) {
    throw new ConfigError('--budget-per-shard goes with --shard I/N (each shard then gets the whole budget instead of budget / N); add --shard or leave out --budget-per-shard');
  }
  if (budgetUsd === undefined) {
    throw new ConfigError('--budget-per-shard gives each shard the whole budget, but no budget is set; give --budget USD (or PARLEY_BUDGET_USD, settings.budget_usd) or leave out --budget-per-shard');
  }
}

/** `--last-failed`: the cases of the suite (comparison cases included) whose ids are listed. */
function onlyCases(suite: LoadedSuite, ids: readonly string[] | undefined): LoadedSuite {
  if (ids === undefined) return suite;
  const wanted = new Set(ids);
  return { ...suite, scenarios: suite.scenarios.filter((scenario) => wanted.has(scenario.data.id)) };
}

/**
 * The case ids a run would run, in order, without running or storing anything (`parley run --list`):
 * the plan phase alone, so every selection flag and usage error is the run's own.
 */
export async function listRunCases(options: RunOptions, dependencies: RunDependencies): Promise<string[]> {
  const plan = await planRun(options, dependencies);
  return plan.pending.map((scenario) => scenario.data.id);
}
