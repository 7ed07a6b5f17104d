import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pLimit from 'p-limit';
import type { Clock, Random, RunEvent, RunListener, RunMode, ScenarioResult } from '@parley/core';
import { ConfigError } from '@parley/core';
import { configFingerprint, loadSuite, type LoadedSuite } from '@parley/config';
import { buildReport, writeReports, type RunReport } from '@parley/reports';
import { openStore, type Store } from '@parley/store';
import { openEventLog } from './event-log.js';
import { gitSha } from './git-sha.js';
import { metricParamSchemas, metricVersions } from './metric-catalog.js';
import { newRunId } from './run-id.js';
import { runScenario, recordingsDir, type ScenarioRunContext } from './scenario-run.js';
import { scenarioFilter, type ScenarioSelection } from './select-scenarios.js';
import { newSession } from './session.js';

export const PARLEY_VERSION = '0.1.0';
export const DEFAULT_CONCURRENCY = 4;

export interface RunOptions extends ScenarioSelection {
  /** Folder holding parley.yaml, or the file itself. */
  suitePath: string;
  /** Default: replay when the suite has recordings, live otherwise. */
  mode?: RunMode;
  concurrency?: number;
  strict?: boolean;
  /** Where report.json, junit.xml, summary.md and events.jsonl go (default .parley/runs/<run_id>). */
  outDir?: string;
  /** The history database (default .parley/parley.db under the working directory). */
  storePath?: string;
  /** Appends summary.md here when set ($GITHUB_STEP_SUMMARY). */
  githubStepSummary?: string;
  /** Stops starting scenarios when aborted (Ctrl-C); finished results are kept. */
  signal?: AbortSignal;
}

export interface RunDependencies {
  cwd: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  random: Random;
  listeners?: RunListener[];
  liveProvider?: ScenarioRunContext['liveProvider'];
}

export interface RunOutcome {
  run_id: string;
  report: RunReport;
  exit_code: number;
  out_dir: string;
  interrupted: boolean;
  suite: LoadedSuite;
}

/** Loads a suite for a run (or for `parley validate`): every problem becomes one ConfigError. */
export function loadSuiteForRun(suitePath: string, selection: ScenarioSelection = {}): LoadedSuite {
  return loadSuite(suitePath, { metricParams: metricParamSchemas(), filter: scenarioFilter(selection) });
}

/**
 * The run orchestrator: loads and selects scenarios, runs them with bounded concurrency, evaluates
 * them, stores each result as it finishes, and writes the reports. It reports through events and
 * knows nothing about who listens (console, TUI, event log).
 */
export async function runSuite(options: RunOptions, dependencies: RunDependencies): Promise<RunOutcome> {
  const { clock, random, env } = dependencies;
  const suite = loadSuiteForRun(resolve(dependencies.cwd, options.suitePath), options);
  if (suite.scenarios.length === 0) {
    throw new ConfigError({ file: suite.file, message: 'no scenario matches the selection (check --scenario / --tag and the scenarios glob)' });
  }
  const mode = options.mode ?? defaultMode(suite);
  const runId = newRunId(clock, random);
  const outDir = resolve(dependencies.cwd, options.outDir ?? join('.parley', 'runs', runId));
  const startedAt = clock.now();
  const startedMs = clock.monotonicMs();
  const metadataOnly = new Set(suite.scenarios.filter((scenario) => scenario.data.metadata_only).map((scenario) => scenario.data.id));
  const eventLog = openEventLog(join(outDir, 'events.jsonl'), (id) => metadataOnly.has(id));
  const listeners = [eventLog.listener, ...(dependencies.listeners ?? [])];
  const emit = (event: RunEvent): void => {
    for (const listener of listeners) listener(event);
  };

  const store: Store = openStore(resolve(dependencies.cwd, options.storePath ?? join('.parley', 'parley.db')));
  const fingerprint = configFingerprint(suite, metricVersions());
  const pendingSha = gitSha(suite.dir);
  try {
    store.createRun({
      id: runId,
      suite: suite.config.suite,
      mode,
      started_at: startedAt.toISOString(),
      git_sha: null,
      config_fingerprint: fingerprint,
      parley_version: PARLEY_VERSION,
      options: runOptionsForStore(options, mode),
      out_dir: outDir,
    });
    emit({
      type: 'run_started',
      run_id: runId,
      suite: suite.config.suite,
      mode,
      scenario_ids: suite.scenarios.map((scenario) => scenario.data.id),
      started_at: startedAt.toISOString(),
    });

    const limit = pLimit(Math.max(1, options.concurrency ?? suite.config.settings?.concurrency ?? DEFAULT_CONCURRENCY));
    const results: ScenarioResult[] = [];
    const context: ScenarioRunContext = {
      suite,
      mode,
      clock,
      env,
      ...(dependencies.liveProvider ? { liveProvider: dependencies.liveProvider } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    await Promise.all(
      suite.scenarios.map((scenario) =>
        limit(async () => {
          if (options.signal?.aborted) return;
          const id = scenario.data.id;
          emit({ type: 'scenario_started', run_id: runId, scenario_id: id });
          const result = await runScenario(scenario, newSession(runId, id, random), {
            ...context,
            onTurn: (turn) => emit({ type: 'turn_completed', run_id: runId, scenario_id: id, turn }),
          });
          if (options.signal?.aborted && result.status === 'error') return; // cut short by Ctrl-C: not a finished result
          results.push(result);
          store.saveScenarioResult(runId, result);
          emit({ type: 'scenario_finished', run_id: runId, result });
        }),
      ),
    );

    const interrupted = options.signal?.aborted ?? false;
    const sha = await pendingSha;
    const finishedAt = clock.now();
    const durationMs = Math.round(clock.monotonicMs() - startedMs);
    const report = buildReport(
      {
        run_id: runId,
        suite: suite.config.suite,
        parley_version: PARLEY_VERSION,
        mode,
        strict: options.strict ?? false,
        started_at: startedAt.toISOString(),
        finished_at: finishedAt.toISOString(),
        duration_ms: durationMs,
        git_sha: sha,
        config_fingerprint: fingerprint,
        interrupted,
      },
      results,
    );
    writeReports(outDir, report, options.githubStepSummary ? { githubStepSummary: options.githubStepSummary } : {});
    store.finishRun(runId, {
      status: report.status,
      exit_code: report.exit_code,
      finished_at: report.finished_at,
      duration_ms: durationMs,
      cost: report.cost,
      counts: report.counts,
      git_sha: sha,
    });
    emit({
      type: 'run_finished',
      run_id: runId,
      status: report.status,
      exit_code: report.exit_code,
      counts: report.counts,
      finished_at: report.finished_at,
    });
    const exitCode = report.exit_code;
    return { run_id: runId, report, exit_code: exitCode, out_dir: outDir, interrupted, suite };
  } finally {
    eventLog.close();
    store.close();
  }
}

/** Replay when the suite has any recording, live otherwise (SPEC §4 Modes). */
export function defaultMode(suite: LoadedSuite): RunMode {
  const directory = recordingsDir(suite);
  if (!existsSync(directory)) return 'live';
  return readdirSync(directory).some((name) => name.endsWith('.jsonl')) ? 'replay' : 'live';
}

function runOptionsForStore(options: RunOptions, mode: RunMode): Record<string, unknown> {
  return {
    suite: options.suitePath,
    mode,
    ...(options.globs?.length ? { scenario: options.globs } : {}),
    ...(options.tags?.length ? { tag: options.tags } : {}),
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.strict ? { strict: true } : {}),
  };
}
