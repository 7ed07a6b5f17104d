import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent, RunMode, ScenarioResult } from '@parley/core';
import { ConfigError } from '@parley/core';
import type { ReportInput } from '@parley/reports';
import { databaseDiskFull, openStore, type Store } from '@parley/store';
import { suiteRedactor, suiteSecretsRedactor, type Redactor } from '@parley/redaction';
import { batchedResultSaves, type BatchedResultSaves } from './batched-result-saves.js';
import { openEventLog } from './event-log.js';
import { gitSha } from './git-sha.js';
import { claimOutDir } from './out-dir.js';
import type { RunPlan } from './plan-run.js';
import { PARLEY_VERSION, type RunDependencies, type RunOptions } from './run-options.js';
import { secretSafeStore } from './secret-safe-store.js';

/** A run's open outputs: where its events, results and history go while it runs. */
export interface OpenRun {
  /** One redactor for everything the run writes for others to read (docs/privacy.md): events and reports. */
  redactor: Redactor;
  /** Masks credentials in what the run keeps for itself: the history and the recordings. */
  secrets: Redactor;
  /** The run history (credentials masked). */
  store: Store;
  /** Finished results on their way into the history (see batched-result-saves.ts). */
  saves: BatchedResultSaves;
  /** The error that stopped the event log (a full disk), if one did. */
  readonly eventLogFailure: unknown;
  /** The suite's git commit, asked for when the run opens and awaited when it ends. */
  gitSha: Promise<string | null>;
  /** Tells the event log and every listener. */
  emit(event: RunEvent): void;
  /** Emits `scenario_finished` with the copy of the result already redacted for the report. */
  emitFinished(result: ScenarioResult, redacted: ReportInput): void;
  /**
   * Saves what is queued, then closes the log and the history and frees the folder; with
   * `discardFolder` (the run never got into the history) a folder the run made is removed. Call once, always.
   */
  close(discardFolder?: boolean): void;
}

/**
 * The open phase: claims the run's folder, opens its event log and the history. What it opened
 * is closed again when a later part fails, so a refused run leaves its folder free.
 */
export function openRun(plan: RunPlan, dependencies: RunDependencies): OpenRun {
  const { suite, runId, outDir, mode, options } = plan;
  const metadataOnly = new Set(suite.scenarios.filter((scenario) => scenario.data.metadata_only).map((scenario) => scenario.data.id));
  const redactor = suiteRedactor(suite, { env: dependencies.env });
  // Each finished result is redacted once, as it finishes (its texts are then still in the
  // redactor's memo from its turn events): the report and the event log share that copy.
  // Set only while its scenario_finished event is emitted (no WeakMap: its entries would keep
  // every raw result alive through the young-generation GCs, and old-generation garbage piles up).
  let justFinished: { result: ScenarioResult; redacted: ReportInput } | undefined;
  // A folder this run makes is removed again when the run never gets into the history (a full
  // disk under the history, a read-only one): a refused run leaves no empty run folder behind.
  const freshOutDir = !existsSync(outDir);
  const releaseOutDir = claimOutDir(outDir, runId);
  const eventLog = openEventLog(join(outDir, 'events.jsonl'), (id) => metadataOnly.has(id), redactor, {
    redactedResult: (result) => (justFinished?.result === result ? justFinished.redacted : undefined),
  });
  const discardOutDir = (): void => {
    if (freshOutDir) rmSync(outDir, { recursive: true, force: true });
  };
  const listeners = [eventLog.listener, ...(dependencies.listeners ?? [])];
  const emit = (event: RunEvent): void => {
    for (const listener of listeners) listener(event);
  };
  const secrets = suiteSecretsRedactor(suite, { env: dependencies.env });
  let store: Store;
  try {
    store = secretSafeStore(openRunStore(plan.storePath), secrets);
  } catch (error) {
    eventLog.close();
    releaseOutDir();
    discardOutDir();
    throw error;
  }
  // A replay saves finished results a few at a time (one transaction per batch), and all of them on
  // Ctrl-C and at the end. Live and record runs (and replays judged live) save each result as it
  // finishes: a result paid for must survive even SIGKILL, so that --resume never pays for it again.
  const saves = batchedResultSaves((finished) => store.saveScenarioResults(runId, finished), {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(mode !== 'replay' || options.judgeMode === 'live' ? { maxBatch: 1 } : {}),
  });
  return {
    redactor,
    secrets,
    store,
    saves,
    get eventLogFailure() {
      return eventLog.failure;
    },
    gitSha: gitSha(suite.dir),
    emit,
    emitFinished(result, redacted) {
      justFinished = result.metadata_only ? undefined : { result, redacted };
      try {
        emit({ type: 'scenario_finished', run_id: runId, result });
      } finally {
        justFinished = undefined;
      }
    },
    close(discardFolder = false) {
      try {
        saves.close(); // a run that failed still keeps the results that finished
      } catch {
        // the run's own error is the one to report
      }
      eventLog.close();
      store.close();
      releaseOutDir();
      if (discardFolder) discardOutDir();
    },
  };
}

/**
 * Stores a new run in the history (a resumed one is there already) and announces it with
 * `run_started`, listing the scenarios still to run.
 */
export function announceRun(plan: RunPlan, run: OpenRun): void {
  const { options, suite, mode, runId } = plan;
  const startedAt = plan.startedAt.toISOString();
  if (!plan.resumed) {
    try {
      createRunRow(plan, run, startedAt, options, mode);
    } catch (error) {
      throw databaseDiskFull(error, plan.storePath) ?? error;
    }
  }
  run.emit({
    type: 'run_started',
    run_id: runId,
    suite: suite.config.suite,
    mode,
    scenario_ids: plan.pending.map((scenario) => scenario.data.id),
    started_at: startedAt,
  });
}

function createRunRow(plan: RunPlan, run: OpenRun, startedAt: string, options: RunOptions, mode: RunMode): void {
  const { suite, runId } = plan;
  run.store.createRun({
      id: runId,
      suite: suite.config.suite,
      mode,
      started_at: startedAt,
      git_sha: null,
      config_fingerprint: plan.fingerprint,
      parley_version: PARLEY_VERSION,
      options: {
        ...runOptionsForStore(options, mode),
        suite_dir: suite.dir,
        // What relative --baseline / --export-baseline are relative to, for a resume from elsewhere.
        cwd: plan.cwd,
        ...(options.budgetUsd !== undefined ? { budget_usd: options.budgetUsd } : {}),
        ...(options.budgetPerShard ? { budget_per_shard: true } : {}),
        ...(options.budgetKey !== undefined ? { budget_key: options.budgetKey } : {}),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(options.judgeMode !== undefined ? { judge: options.judgeMode } : {}),
        ...(options.noCache ? { no_cache: true } : {}),
        ...(plan.agents ? { agents: plan.agents } : {}),
        // Not a flag: how many scenarios the run is to run, so an interrupted run says "n of N ran".
        planned: plan.gate.scenarios.length,
      },
      out_dir: plan.outDir,
    });
}

/** The run history database; a folder Parley cannot write to is a ConfigError of one line. */
function openRunStore(storePath: string): Store {
  try {
    return openStore(storePath);
  } catch (error) {
    // A team store's own errors (unreachable server, wrong password, read-only replica) name the
    // server, not this path: passed on as they are.
    if (error instanceof ConfigError) throw error;
    const full = databaseDiskFull(error, storePath);
    if (full) throw new ConfigError(`cannot open the run history ${storePath}: disk full: nothing was changed (free some space and run again)`);
    const code = (error as NodeJS.ErrnoException).code ?? '';
    // SQLite's native addon that does not load (another Node's build) is not about this path: the
    // internal-error handler names it and says `npm rebuild better-sqlite3`.
    if (code === 'ERR_DLOPEN_FAILED') throw error;
    const reason = code === 'SQLITE_READONLY' || code === 'EROFS' ? 'read-only file system' : code === 'EACCES' || code === 'SQLITE_CANTOPEN' ? 'cannot create or open it here (read-only folder?)' : (error as Error).message;
    throw new ConfigError(`cannot open the run history ${storePath}: ${reason}`);
  }
}

function runOptionsForStore(options: RunOptions, mode: RunMode): Record<string, unknown> {
  return {
    suite: options.suitePath,
    mode,
    ...(options.globs?.length ? { scenario: options.globs } : {}),
    ...(options.tags?.length ? { tag: options.tags } : {}),
    ...(options.exclude?.length ? { exclude: options.exclude } : {}),
    ...(options.grep?.length ? { grep: options.grep } : {}),
    ...(options.onlyCases?.length ? { last_failed: options.onlyCases } : {}),
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.strict ? { strict: true } : {}),
    ...(options.repeat !== undefined && options.repeat > 1 ? { repeat: options.repeat } : {}),
    ...(options.baseline !== undefined ? { baseline: options.baseline } : {}),
    ...(options.exportBaseline !== undefined ? { export_baseline: options.exportBaseline } : {}),
    ...(options.shard !== undefined ? { shard: `${options.shard.index}/${options.shard.total}` } : {}),
    ...(options.changedSince !== undefined ? { changed_since: options.changedSince } : {}),
  };
}
