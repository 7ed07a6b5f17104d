import { setMaxListeners } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import pLimit from 'p-limit';
import type { Clock, InterruptSignal, Random, RunEvent, RunListener, RunMode, ScenarioResult } from '@parley/core';
import { ConfigError } from '@parley/core';
import { configFingerprint, loadSuite, type LoadedSuite } from '@parley/config';
import { buildBaseline, type Shard } from '@parley/gate';
import { buildReport, redactResultContent, writeReports, type BudgetReport, type ReportInput, type RunReport } from '@parley/reports';
import { openModelSpend, openStore, type ModelSpend, type Store } from '@parley/store';
import { preloadRecording, recordingPath } from '@parley/providers';
import { suiteRedactor, suiteSecretsRedactor } from '@parley/redaction';
import { secretSafeStore } from './secret-safe-store.js';
import { openEventLog } from './event-log.js';
import { batchedResultSaves } from './batched-result-saves.js';
import { gitSha } from './git-sha.js';
import { metricParamSchemas, metricVersions } from './metric-catalog.js';
import { newRunId } from './run-id.js';
import { runScenario, recordingsDir, type ScenarioRunContext } from './scenario-run.js';
import { scenarioFilter, type ScenarioSelection } from './select-scenarios.js';
import { erroredBySweep, liveRunParts, skippedForBudget } from './live-run.js';
import { loadResumeState } from './resume-run.js';
import { newSession } from './session.js';
import { writeBaselineFile } from './baseline-gating.js';
import { planGate } from './gate-plan.js';
import { runRepeated } from './repeat-scenario.js';
import { checkSuiteJudging, refuseJudgeReplayWhileRecording, RunJudging, type JudgeRunFlags } from './run-judging.js';
import { budgetLimit } from './budget.js';
import { claimOutDir } from './out-dir.js';
import { recordingKeeper, rerecordingsDir } from './rerecording.js';
import { comparedAgents, withComparisonCases } from './comparison-cases.js';
import { calibrationWarnings } from './calibration-warnings.js';
import { recordJudgeAgreement } from './judge-agreement.js';
import { compareAgents } from '@parley/compare';

export const PARLEY_VERSION = '0.1.0';
export const DEFAULT_CONCURRENCY = 4;

export interface RunOptions extends ScenarioSelection, JudgeRunFlags {
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
  /**
   * Stops starting scenarios when aborted (Ctrl-C, SIGTERM); finished results are kept and the run
   * is `interrupted`. Aborted with the reason `'SIGTERM'` it exits 143, otherwise 130.
   */
  signal?: AbortSignal;
  /** `--budget`: USD limit (else PARLEY_BUDGET_USD, else settings.budget_usd); scenarios not started once it is reached are skipped. */
  budgetUsd?: number;
  /** `--budget-per-shard`: under `--shard I/N` every shard gets the whole budget instead of budget / N. */
  budgetPerShard?: boolean;
  /** `--resume RUN_ID`: finish an interrupted run with its own flags (those given here are replaced). */
  resume?: string;
  /** `--repeat N`: every scenario N times; all pass → pass, all fail → fail, mixed → flaky. */
  repeat?: number;
  /** `--baseline FILE`: scored metrics are gated against this baseline (relative thresholds). */
  baseline?: string;
  /** `--export-baseline FILE`: this run's scores are written as a baseline. */
  exportBaseline?: string;
  /** `--shard I/N`: only the scenarios whose id hashes into shard I of N. */
  shard?: Shard;
  /** `--changed-since GITREF`: only the scenarios the changes since GITREF affect (the gate matrix). */
  changedSince?: string;
  /**
   * `--agent NAME` (repeatable): a comparison run, every selected scenario against each of these
   * agents instead of its own (else `matrix.agents` of parley.yaml). See comparison-cases.ts.
   */
  agents?: string[];
}

export interface RunDependencies {
  cwd: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  random: Random;
  listeners?: RunListener[];
  liveProvider?: ScenarioRunContext['liveProvider'];
  /** Sleeper, jitter, timer and monotonic clock of retries, timeouts and rate limits (tests inject them). */
  resilience?: ScenarioRunContext['resilience'] & { now?: () => number };
}

export interface RunOutcome {
  run_id: string;
  report: RunReport;
  exit_code: number;
  out_dir: string;
  interrupted: boolean;
  /** The signal that stopped the run, when one did. */
  interrupted_by?: InterruptSignal;
  suite: LoadedSuite;
  /** The baseline `--export-baseline` wrote, with its number of entries. */
  exported_baseline?: { file: string; entries: number };
}

/** Loads a suite for a run (or for `parley validate`): every problem becomes one ConfigError. */
export function loadSuiteForRun(suitePath: string, selection: ScenarioSelection = {}): LoadedSuite {
  const suite = loadSuite(suitePath, { metricParams: metricParamSchemas(), filter: scenarioFilter(selection) });
  checkSuiteJudging(suite);
  return suite;
}

/**
 * The run orchestrator: loads and selects scenarios, runs them with bounded concurrency, evaluates
 * them, stores each result as it finishes, and writes the reports. It reports through events and
 * knows nothing about who listens (console, TUI, event log).
 */
export async function runSuite(givenOptions: RunOptions, dependencies: RunDependencies): Promise<RunOutcome> {
  const { clock, random, env } = dependencies;
  const storePath = resolve(dependencies.cwd, givenOptions.storePath ?? join('.parley', 'parley.db'));
  const resumed = givenOptions.resume !== undefined ? loadResumeState(storePath, givenOptions.resume) : undefined;
  const options: RunOptions = resumed ? { ...givenOptions, ...resumed.options } : givenOptions;
  const loaded = loadSuiteForRun(resolve(dependencies.cwd, options.suitePath), options);
  const agents = comparedAgents(loaded, options.agents);
  const suite = agents ? withComparisonCases(loaded, agents) : loaded;
  if (options.strict && suite.warnings.length > 0) {
    // --strict: what `parley validate` warns about (e.g. a judge judging its own model) stops the run.
    throw new ConfigError(suite.warnings.map((warning) => ({ ...warning, severity: 'error' as const })));
  }
  if (suite.scenarios.length === 0) {
    throw new ConfigError({ file: suite.file, message: 'no scenario matches the selection (check --scenario / --tag and the scenarios glob)' });
  }
  const mode = options.mode ?? defaultMode(suite);
  // Usage errors are found before the run is stored: a refused run leaves no trace in the history.
  refuseJudgeReplayWhileRecording(mode, options.judgeMode);
  budgetLimit(options.budgetUsd, env, suite.config.settings?.budget_usd);
  if (resumed && givenOptions.outDir !== undefined && resolve(dependencies.cwd, givenOptions.outDir) !== resumed.outDir) {
    throw new ConfigError(`--resume ${resumed.runId} continues the run in its own folder ${resumed.outDir}; leave out --out ${givenOptions.outDir}`);
  }
  // The suite's own fingerprint, the same whichever agents a run compares: shards and baselines match it.
  const fingerprint = configFingerprint(loaded, metricVersions());
  const plan = await planGate(suite, options, { cwd: dependencies.cwd, fingerprint, parleyVersion: PARLEY_VERSION });
  const runId = resumed?.runId ?? newRunId(clock, random);
  // The run seed draws the cross-check sample; stored with the run so that --resume draws the same.
  const seed = options.seed;
  const outDir = resumed?.outDir ?? resolve(dependencies.cwd, options.outDir ?? join('.parley', 'runs', runId));
  const startedAt = resumed?.startedAt ?? clock.now();
  const startedMs = clock.monotonicMs();
  const metadataOnly = new Set(suite.scenarios.filter((scenario) => scenario.data.metadata_only).map((scenario) => scenario.data.id));
  // One redactor for everything this run writes for others to read (SPEC §7): events and reports.
  const redactor = suiteRedactor(suite, { env });
  // Each finished result is redacted once, as it finishes (its texts are then still in the
  // redactor's memo from its turn events): the report and the event log share that copy.
  // Set only while its scenario_finished event is emitted (no WeakMap: its entries would keep
  // every raw result alive through the young-generation GCs, and old-generation garbage piles up).
  let justFinished: { result: ScenarioResult; redacted: ReportInput } | undefined;
  const releaseOutDir = claimOutDir(outDir, runId);
  const eventLog = openEventLog(join(outDir, 'events.jsonl'), (id) => metadataOnly.has(id), redactor, {
    redactedResult: (result) => (justFinished?.result === result ? justFinished.redacted : undefined),
  });
  const listeners = [eventLog.listener, ...(dependencies.listeners ?? [])];
  const emit = (event: RunEvent): void => {
    for (const listener of listeners) listener(event);
  };

  const emitFinished = (result: ScenarioResult, redacted: ReportInput): void => {
    justFinished = result.metadata_only ? undefined : { result, redacted };
    try {
      emit({ type: 'scenario_finished', run_id: runId, result });
    } finally {
      justFinished = undefined;
    }
  };

  // Credentials are masked in everything the run keeps for itself: the history and the recordings.
  const secrets = suiteSecretsRedactor(suite, { env });
  let store: Store;
  try {
    store = secretSafeStore(openRunStore(storePath), secrets);
  } catch (error) {
    eventLog.close();
    releaseOutDir();
    throw error;
  }
  // A replay saves finished results a few at a time (one transaction per batch), and all of them on
  // Ctrl-C and at the end. Live and record runs (and replays judged live) save each result as it
  // finishes: a result paid for must survive even SIGKILL, so that --resume never pays for it again.
  const saves = batchedResultSaves((finished) => store.saveScenarioResults(runId, finished), {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(mode !== 'replay' || options.judgeMode === 'live' ? { maxBatch: 1 } : {}),
  });
  const pendingSha = gitSha(suite.dir);
  let judging: RunJudging | undefined;
  try {
    if (!resumed) store.createRun({
      id: runId,
      suite: suite.config.suite,
      mode,
      started_at: startedAt.toISOString(),
      git_sha: null,
      config_fingerprint: fingerprint,
      parley_version: PARLEY_VERSION,
      options: {
        ...runOptionsForStore(options, mode),
        suite_dir: suite.dir,
        ...(options.budgetUsd !== undefined ? { budget_usd: options.budgetUsd } : {}),
        ...(options.budgetPerShard ? { budget_per_shard: true } : {}),
        ...(seed !== undefined ? { seed } : {}),
        ...(options.judgeMode !== undefined ? { judge: options.judgeMode } : {}),
        ...(options.noCache ? { no_cache: true } : {}),
        ...(agents ? { agents } : {}),
        // Not a flag: how many scenarios the run is to run, so an interrupted run says "n of N ran".
        planned: plan.scenarios.length,
      },
      out_dir: outDir,
    });
    const finishedBefore = new Set(resumed?.previous.map((result) => result.scenario_id));
    const pending = plan.scenarios.filter((scenario) => !finishedBefore.has(scenario.data.id));
    emit({
      type: 'run_started',
      run_id: runId,
      suite: suite.config.suite,
      mode,
      scenario_ids: pending.map((scenario) => scenario.data.id),
      started_at: startedAt.toISOString(),
    });

    const limit = pLimit(Math.max(1, options.concurrency ?? suite.config.settings?.concurrency ?? DEFAULT_CONCURRENCY));
    // Every call in flight listens to the run's signal (Ctrl-C aborts it): many at once is expected, not a leak.
    if (options.signal) setMaxListeners(0, options.signal);
    const previous = resumed?.previous ?? [];
    // What the report is built from: every result redacted once, as it finishes (see justFinished).
    const results: ReportInput[] = previous.map((result) => redactResultContent(result, redactor));
    // --export-baseline scores the results as they are (metric details unredacted).
    const scored: Array<Pick<ScenarioResult, 'scenario_id' | 'metrics'>> = options.exportBaseline !== undefined ? [...previous] : [];
    const finish = (result: ReportInput): ReportInput => {
      const redacted = redactResultContent(result, redactor);
      results.push(redacted);
      if (options.exportBaseline !== undefined) scored.push({ scenario_id: result.scenario_id, metrics: result.metrics });
      return redacted;
    };
    const live = liveRunParts(suite, mode, options, dependencies, previous);
    const sweepFailure = await live.sweep(runId, options.signal);
    judging = RunJudging.create({
      suite,
      mode,
      flags: options,
      storePath,
      scenarios: suite.scenarios,
      runScenarioIds: plan.scenarios.map((scenario) => scenario.data.id),
      ...(live.budget ? { budget: live.budget } : {}),
      clock,
    });
    const context: ScenarioRunContext = {
      judging,
      ...live.context,
      suite,
      mode,
      clock,
      // A plain copy: every scenario spreads it into its hooks' environment, and spreading
      // process.env itself costs a call into Node per variable.
      env: { ...env },
      ...(dependencies.liveProvider ? { liveProvider: dependencies.liveProvider } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(plan.baseline ? { gateMetrics: plan.baseline.gateMetrics } : {}),
      // Live and record runs keep each scenario's recording beside the history for triage (rerecording.ts).
      ...(mode !== 'replay'
        ? {
            recordingKeeper: recordingKeeper({
              mode,
              recordingsDir: recordingsDir(suite),
              keepDir: rerecordingsDir(storePath, runId),
              resumed: resumed !== undefined,
              secrets: (text) => secrets.text(text),
            }),
          }
        : {}),
    };
    // A bad file or a full disk in one scenario (a ConfigError) stops the run from starting more;
    // the scenarios in flight finish (and tear down) before the run ends with it (exit 2).
    let fatal: { error: unknown } | undefined;
    const settle = (task: () => Promise<void>) => async (): Promise<void> => {
      if (fatal !== undefined) return;
      try {
        await task();
      } catch (error) {
        fatal ??= { error };
      }
    };
    await Promise.all(
      pending.map((scenario) =>
        limit(settle(async () => {
          if (options.signal?.aborted) return;
          const id = scenario.data.id;
          const notStarted = sweepFailure ? erroredBySweep(scenario, sweepFailure) : live.budget?.exhausted ? skippedForBudget(scenario, live.budget) : undefined;
          if (notStarted) {
            const redacted = finish(notStarted);
            saves.save(notStarted);
            emitFinished(notStarted, redacted);
            return;
          }
          emit({ type: 'scenario_started', run_id: runId, scenario_id: id });
          // Replayed calls read the recording: parse it once for the conversation and its judges.
          const release = mode === 'replay' || options.judgeMode === 'replay' ? preloadRecording(recordingPath(recordingsDir(suite), id)) : undefined;
          const repeated = await runRepeated(
            options.repeat ?? 1,
            (attempt, cassette) =>
              runScenario(scenario, newSession(runId, id, random), {
                ...context,
                ...(cassette ? { cassette, attempt } : {}),
                onTurn: (turn) => emit({ type: 'turn_completed', run_id: runId, scenario_id: id, turn }),
              }),
            { ...(options.signal ? { signal: options.signal } : {}), onAttempt: (attempt, result) => store.saveScenarioResult(runId, result, attempt) },
          );
          release?.();
          if (repeated === null) return; // Ctrl-C stopped its attempts: not a finished result
          const { result } = repeated;
          if (options.signal?.aborted && result.status === 'error') return; // cut short by Ctrl-C: not a finished result
          const redacted = finish(repeated.attempts ? { ...result, attempts: repeated.attempts } : result);
          saves.save(result);
          emitFinished(result, redacted);
        })),
      ),
    );

    saves.close();
    if (fatal !== undefined) throw fatal.error;
    // The event log stopped at its last whole line (a full disk): the run cannot vouch for its outputs.
    if (eventLog.failure !== undefined) throw eventLog.failure;
    const interruptedBy = options.signal?.aborted ? interruptSignalOf(options.signal) : undefined;
    const interrupted = interruptedBy !== undefined;
    const calibrationDue = suite.config.judge?.primary ? await calibrationWarnings({ cwd: dependencies.cwd, storePath, now: clock.now() }) : [];
    const judgeReport = judging.judgeRun?.report();
    const pairs = judging.judgeRun?.crossCheckPairs() ?? [];
    // The run's kappa between the two judges, kept per run for the trend (not for an interrupted run's partial sample).
    const agreement =
      judgeReport?.cross_check !== undefined && pairs.length > 0 && !interrupted
        ? await recordJudgeAgreement({ storePath, run: { id: runId, suite: suite.config.suite, started_at: startedAt.toISOString() }, pairs })
        : undefined;
    const runWarnings = [...(plan.baseline?.warnings ?? []), ...calibrationDue, ...(agreement?.warnings ?? [])];
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
        ...(interruptedBy !== undefined ? { interrupted: interruptedBy } : {}),
        planned: plan.scenarios.length,
        ...(live.budget ? { budget: withJudgeDowngrades(live.budget.report(), judging.budgetDowngrades()) } : {}),
        ...(judgeReport ? { judge: agreement && judgeReport.cross_check ? { ...judgeReport, cross_check: { ...judgeReport.cross_check, kappa: agreement.kappa } } : judgeReport } : {}),
        ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
        ...(plan.selection ? { selection: plan.selection } : {}),
        ...(plan.baseline ? { baseline: plan.baseline.source } : {}),
        ...(plan.baseline || runWarnings.length > 0 ? { warnings: runWarnings } : {}),
        // Scenarios marked flaky in triage (`parley tui`): the reports say so beside them.
        flaky_marks: store.flakyMarks(suite.config.suite),
        ...(agents && agents.length > 1 ? { comparison: compareAgents(results, agents, seed !== undefined ? { seed } : {}) } : {}),
      },
      results,
      { redactor, alreadyRedacted: true, files: scenarioFiles(suite, dependencies.cwd) },
    );
    writeReports(outDir, report, options.githubStepSummary ? { githubStepSummary: options.githubStepSummary } : {});
    saveModelSpend(storePath, runId, live.spend.spend());
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
    let exported: RunOutcome['exported_baseline'];
    if (options.exportBaseline !== undefined && !interrupted) {
      const file = resolve(dependencies.cwd, options.exportBaseline);
      const baseline = buildBaseline(
        { suite: suite.config.suite, parleyVersion: PARLEY_VERSION, createdAt: finishedAt.toISOString(), configFingerprint: fingerprint },
        scored,
      );
      writeBaselineFile(file, baseline);
      exported = { file, entries: baseline.entries.length };
    }
    return {
      run_id: runId,
      report,
      exit_code: exitCode,
      out_dir: outDir,
      interrupted,
      ...(interruptedBy !== undefined ? { interrupted_by: interruptedBy } : {}),
      suite,
      ...(exported ? { exported_baseline: exported } : {}),
    };
  } finally {
    try {
      saves.close(); // a run that failed still keeps the results that finished
    } catch {
      // the run's own error is the one to report
    }
    judging?.close();
    eventLog.close();
    store.close();
    releaseOutDir();
  }
}

/** The run history database; a folder Parley cannot write to is a ConfigError of one line. */
function openRunStore(storePath: string): Store {
  try {
    return openStore(storePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = code === 'SQLITE_READONLY' || code === 'EROFS' ? 'read-only file system' : code === 'EACCES' || code === 'SQLITE_CANTOPEN' ? 'cannot create or open it here (read-only folder?)' : (error as Error).message;
    throw new ConfigError(`cannot open the run history ${storePath}: ${reason}`);
  }
}

/** SIGTERM when the signal was aborted with that reason (the CLI does so on SIGTERM), else Ctrl-C. */
function interruptSignalOf(signal: AbortSignal): InterruptSignal {
  return signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
}

/** The budget section with what the judging gave up first (the cross-check), then what the run gave up. */
function withJudgeDowngrades(budget: BudgetReport, judgeDowngrades: readonly string[]): BudgetReport {
  return judgeDowngrades.length === 0 ? budget : { ...budget, downgrades: [...judgeDowngrades, ...budget.downgrades] };
}

/** Replay when the suite has any recording, live otherwise (SPEC §4 Modes). */
export function defaultMode(suite: LoadedSuite): RunMode {
  const directory = recordingsDir(suite);
  if (!existsSync(directory)) return 'live';
  return readdirSync(directory).some((name) => name.endsWith('.jsonl')) ? 'replay' : 'live';
}

/** Adds the run's per-model spend to the store (`parley cost`); nothing to add when it paid nothing. */
function saveModelSpend(storePath: string, runId: string, spend: readonly ModelSpend[]): void {
  if (spend.length === 0) return;
  const spendStore = openModelSpend(storePath);
  try {
    spendStore.add(runId, spend);
  } finally {
    spendStore.close();
  }
}

function runOptionsForStore(options: RunOptions, mode: RunMode): Record<string, unknown> {
  return {
    suite: options.suitePath,
    mode,
    ...(options.globs?.length ? { scenario: options.globs } : {}),
    ...(options.tags?.length ? { tag: options.tags } : {}),
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.strict ? { strict: true } : {}),
    ...(options.repeat !== undefined && options.repeat > 1 ? { repeat: options.repeat } : {}),
    ...(options.baseline !== undefined ? { baseline: options.baseline } : {}),
    ...(options.exportBaseline !== undefined ? { export_baseline: options.exportBaseline } : {}),
    ...(options.shard !== undefined ? { shard: `${options.shard.index}/${options.shard.total}` } : {}),
    ...(options.changedSince !== undefined ? { changed_since: options.changedSince } : {}),
  };
}

/** Scenario id → its file relative to the run's folder, as CI tools want paths (`/` separators). */
function scenarioFiles(suite: LoadedSuite, cwd: string): Map<string, string> {
  return new Map(suite.scenarios.map((scenario) => [scenario.data.id, relative(cwd, scenario.file).split(sep).join('/')]));
}
