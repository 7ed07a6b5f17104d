/**
 * The programmatic API of the `parley-eval` package: load and run suites from code, the report
 * types, `defineAgent` for module agents and `defineMetric` for metrics written as modules. The `parley` command is built on the same calls.
 */
import { resolve } from 'node:path';
import { systemClock, systemRandom, type RunListener } from '@parley/core';
import type { LoadedSuite } from '@parley/config';
import type { RunOptions, RunOutcome } from '@parley/runner';

export interface RunSuiteOptions extends RunOptions {
  /** Relative paths (suite, reports, store, baselines) resolve against it; default `process.cwd()`. */
  cwd?: string;
  /**
   * Where API keys and base URLs are read from; default `process.env` (which fits this type: it is
   * written without Node's types so a project without `@types/node` compiles).
   */
  env?: Record<string, string | undefined>;
  /** Called with every run event (scenario started, turn, metric, finished …) as it happens. */
  listeners?: RunListener[];
}

/**
 * Runs a suite as `parley run` does (same reports in `.parley/runs/<run_id>/`, same store) and
 * resolves with the report and the exit code `parley run` would give; it never exits the process.
 * A configuration error rejects with a `ConfigError` listing every problem with file:line:column.
 */
export async function runSuite(options: RunSuiteOptions): Promise<RunOutcome> {
  const { cwd, env, listeners, ...runOptions } = options;
  // The runner is loaded on first use, as the CLI loads it: importing this module stays cheap.
  const { runSuite: runSuiteWith } = await import('@parley/runner');
  return runSuiteWith(runOptions, {
    cwd: cwd ?? process.cwd(),
    env: env ?? process.env,
    clock: systemClock,
    random: systemRandom(),
    ...(listeners ? { listeners } : {}),
  });
}

export interface LoadSuiteOptions {
  /** Relative paths resolve against it; default `process.cwd()`. */
  cwd?: string;
  /** `--scenario GLOB` (repeatable): only scenarios whose id matches one are loaded. */
  globs?: string[];
  /** `--tag T` (repeatable): only scenarios with one of these tags are loaded. */
  tags?: string[];
}

/**
 * Loads and checks a suite without running it, as `parley validate` does: `suitePath` is the suite
 * folder or its parley.yaml. Rejects with a `ConfigError` listing every problem with file:line:column.
 */
export async function loadSuite(suitePath: string, options: LoadSuiteOptions = {}): Promise<LoadedSuite> {
  const { loadSuiteForRun } = await import('@parley/runner');
  return loadSuiteForRun(resolve(options.cwd ?? process.cwd(), suitePath), {
    ...(options.globs ? { globs: options.globs } : {}),
    ...(options.tags ? { tags: options.tags } : {}),
  });
}

export { ConfigError, isConfigError } from '@parley/core';
export type { ConfigIssue, RunEvent, RunListener, RunMode, Status, Gate, ScenarioResult, MetricResult, CostSummary } from '@parley/core';
export type { LoadedSuite, LoadedScenario, ScenarioFilter, SuiteFile, ScenarioFile } from '@parley/config';
export type { RunOptions, RunOutcome } from '@parley/runner';
export type { RunReport, ReportResult, ReportAttempt, BaselineReport, BudgetReport, JudgeReport, RunSelection } from '@parley/reports';
export { defineAgent, type AgentTurn, type AgentContext, type AgentAnswer, type AgentToolCall, type AgentRespond } from '@parley/engine';
export {
  defineMetric,
  type CodeMetric,
  type CodeMetricInput,
  type CodeMetricAnswer,
  type CodeMetricContext,
  type CodeMetricTurn,
  type CodeMetricToolCall,
} from '@parley/engine';
