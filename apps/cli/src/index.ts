/**
 * The programmatic API of the `parley-eval` package: load and run suites from code, the report
 * types, and `defineAgent` for module agents. The `parley` command is built on the same calls.
 */
import { systemClock, systemRandom, type RunListener } from '@parley/core';
import { loadSuite as loadSuiteFiles, type LoadedSuite, type ScenarioFilter } from '@parley/config';
import { metricParamSchemas, runSuite as runSuiteWith, type RunOptions, type RunOutcome } from '@parley/runner';

export interface RunSuiteOptions extends RunOptions {
  /** Relative paths (suite, reports, store, baselines) resolve against it; default `process.cwd()`. */
  cwd?: string;
  /** Where API keys and base URLs are read from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Called with every run event (scenario started, turn, metric, finished …) as it happens. */
  listeners?: RunListener[];
}

/**
 * Runs a suite as `parley run` does (same reports in `.parley/runs/<run_id>/`, same store) and
 * resolves with the report and the exit code `parley run` would give; it never exits the process.
 * A configuration error rejects with a `ConfigError` listing every problem with file:line:column.
 */
export function runSuite(options: RunSuiteOptions): Promise<RunOutcome> {
  const { cwd, env, listeners, ...runOptions } = options;
  return runSuiteWith(runOptions, {
    cwd: cwd ?? process.cwd(),
    env: env ?? process.env,
    clock: systemClock,
    random: systemRandom(),
    ...(listeners ? { listeners } : {}),
  });
}

export interface LoadSuiteOptions {
  /** Only scenarios this filter keeps are loaded. */
  filter?: ScenarioFilter;
}

/**
 * Loads and checks a suite without running it, as `parley validate` does: `suitePath` is the suite
 * folder or its parley.yaml. Throws a `ConfigError` listing every problem with file:line:column.
 */
export function loadSuite(suitePath: string, options: LoadSuiteOptions = {}): LoadedSuite {
  return loadSuiteFiles(suitePath, { metricParams: metricParamSchemas(), ...(options.filter ? { filter: options.filter } : {}) });
}

export { ConfigError, isConfigError } from '@parley/core';
export type { ConfigIssue, RunEvent, RunListener, RunMode, Status, Gate, ScenarioResult, MetricResult, CostSummary } from '@parley/core';
export type { LoadedSuite, LoadedScenario, ScenarioFilter, SuiteFile, ScenarioFile } from '@parley/config';
export type { RunOptions, RunOutcome } from '@parley/runner';
export type { RunReport, ReportResult, ReportAttempt, BaselineReport, BudgetReport, JudgeReport, RunSelection } from '@parley/reports';
export { defineAgent, type AgentTurn, type AgentContext, type AgentAnswer, type AgentToolCall, type AgentRespond } from '@parley/engine';
