import type { Clock, InterruptSignal, Random, RunListener, RunMode } from '@parley/core';
import type { LoadedSuite } from '@parley/config';
import type { Shard } from '@parley/gate';
import type { RunReport } from '@parley/reports';
import type { JudgeRunFlags } from './run-judging.js';
import type { ScenarioRunContext } from './scenario-run.js';
import type { ScenarioSelection } from './select-scenarios.js';

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
  /**
   * Keep this run's history in the SQLite file at `storePath` even when a team store is configured
   * (PARLEY_DATABASE_URL, settings.store.url_env): a scratch run nobody else should see in `runs list`
   * (`parley init`'s starter recording). Only the run's own store path is affected.
   */
  localStore?: boolean;
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
  /** `--budget-key` (else PARLEY_BUDGET_KEY): runs giving the same key hold to one budget in the store (shared-budget-counter.ts). */
  budgetKey?: string;
  /** `--last-failed`: only these case ids (those that failed or errored in the suite's latest finished run). */
  onlyCases?: string[];
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
  /**
   * How the person runs Parley from their shell (`parley`, or `npx parley` for a project's local
   * install), for the commands the run prints to be pasted (record, resume, export a baseline).
   * Asked only when such a command is made; `parley` when left out.
   */
  parleyCommand?: () => string;
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
  /** What the prune after the run (`settings.history`) removed; absent after an interrupted run. */
  history_pruned?: { runs: number; folders: number; deferred: number; compacted: boolean; duration_ms: number; error?: string };
}
