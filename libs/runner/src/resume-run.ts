import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ConfigError, type RunMode, type ScenarioResult } from '@parley/core';
import { isInterruptedExit, parseShard, type Shard } from '@parley/gate';
import { openStore, storeShownFor } from '@parley/store';

/** What `--resume RUN_ID` carries over from the interrupted run. */
export interface ResumeState {
  runId: string;
  startedAt: Date;
  outDir: string;
  /** Results the run had finished before it was stopped: kept, not run again. */
  previous: ScenarioResult[];
  /**
   * The interrupted run's own choices: suite, mode, selection, concurrency, strictness, budget, and
   * what decides its gate (baseline, shard, repeats, changed-since): a resumed run that dropped them
   * would run other scenarios or pass a regression the interrupted run was gating on.
   */
  options: {
    suitePath: string;
    mode: RunMode;
    globs?: string[];
    tags?: string[];
    exclude?: string[];
    grep?: string[];
    /** `--last-failed`: the case ids it selected when the run started. */
    onlyCases?: string[];
    concurrency?: number;
    strict?: boolean;
    budgetUsd?: number;
    budgetPerShard?: boolean;
    budgetKey?: string;
    /** The run seed, so the cross-check sample is the one the run started with. */
    seed?: number;
    judgeMode?: 'live' | 'replay';
    noCache?: boolean;
    /** `--agent`: the agents a comparison run compared. */
    agents?: string[];
    repeat?: number;
    /**
     * `--baseline` and `--export-baseline`, resolved against the folder the run was started in
     * (stored as `cwd`), so that a resume from another folder reads and writes the same files. As
     * typed when the resume is in that same folder, or when the run is older than the stored `cwd`.
     */
    baseline?: string;
    exportBaseline?: string;
    shard?: Shard;
    changedSince?: string;
  };
}

/**
 * Reads an interrupted run from the store so that it can be finished under the same id, into the
 * same report folder, with the same flags. A run that finished normally is refused: there is
 * nothing to resume, and re-running it would silently change a completed record. `cwd` is the
 * folder the resume runs in (the stored run's file flags are resolved for it).
 */
export function loadResumeState(storePath: string, idOrPrefix: string, cwd: string, parleyCommand: () => string = () => 'parley'): ResumeState {
  const store = openStore(storePath);
  try {
    const run = store.getRun(idOrPrefix);
    if (!run) throw new ConfigError(`--resume ${idOrPrefix}: no such run in ${storeShownFor(storePath)} (see ${parleyCommand()} runs list)`);
    if (run.finished && run.status !== 'interrupted' && !isInterruptedExit(run.exit_code)) {
      const rerun = budgetRerunOf(run.out_dir);
      const leftOut = rerun === undefined ? '' : `; to run the scenarios its budget left out: ${rerun}`;
      throw new ConfigError(`--resume ${run.id}: that run finished (exit ${run.exit_code}); only an interrupted run can be resumed${leftOut}`);
    }
    const stored = run.options;
    const startedIn = stringOption(stored.cwd);
    const here = rebaseOnto(startedIn, cwd);
    const file = (value: unknown): string | undefined => {
      const typed = stringOption(value);
      if (typed === undefined || startedIn === undefined || startedIn === cwd) return typed;
      return here(isAbsolute(typed) ? typed : resolve(startedIn, typed));
    };
    const storedSuite = stringOption(stored.suite_dir) ?? stringOption(stored.suite);
    const suitePath = storedSuite === undefined ? undefined : here(storedSuite);
    if (suitePath === undefined) throw new ConfigError(`--resume ${run.id}: the stored run does not say which suite it ran`);
    return {
      runId: run.id,
      startedAt: new Date(run.started_at),
      outDir: here(run.out_dir),
      previous: store.getScenarioResults(run.id),
      options: {
        suitePath,
        mode: run.mode,
        ...(stringList(stored.scenario) ? { globs: stringList(stored.scenario)! } : {}),
        ...(stringList(stored.tag) ? { tags: stringList(stored.tag)! } : {}),
        ...(stringList(stored.exclude) ? { exclude: stringList(stored.exclude)! } : {}),
        ...(stringList(stored.grep) ? { grep: stringList(stored.grep)! } : {}),
        ...(stringList(stored.last_failed) ? { onlyCases: stringList(stored.last_failed)! } : {}),
        ...(typeof stored.concurrency === 'number' ? { concurrency: stored.concurrency } : {}),
        ...(stored.strict === true ? { strict: true } : {}),
        ...(typeof stored.budget_usd === 'number' ? { budgetUsd: stored.budget_usd } : {}),
        ...(stored.budget_per_shard === true ? { budgetPerShard: true } : {}),
        ...(typeof stored.budget_key === 'string' ? { budgetKey: stored.budget_key } : {}),
        ...(typeof stored.seed === 'number' ? { seed: stored.seed } : {}),
        ...(stored.judge === 'live' || stored.judge === 'replay' ? { judgeMode: stored.judge } : {}),
        ...(stored.no_cache === true ? { noCache: true } : {}),
        ...(stringList(stored.agents) ? { agents: stringList(stored.agents)! } : {}),
        ...(typeof stored.repeat === 'number' ? { repeat: stored.repeat } : {}),
        ...(file(stored.baseline) ? { baseline: file(stored.baseline)! } : {}),
        ...(file(stored.export_baseline) ? { exportBaseline: file(stored.export_baseline)! } : {}),
        ...(stringOption(stored.shard) ? { shard: parseShard(stringOption(stored.shard)!) } : {}),
        ...(stringOption(stored.changed_since) ? { changedSince: stringOption(stored.changed_since)! } : {}),
      },
    };
  } finally {
    store.close();
  }
}

/**
 * Paths of a run started in a folder this machine does not have (another machine sharing the team
 * store, or a clone since moved): those inside that folder are taken to the same place under `cwd`,
 * the folder the resume runs in, so the run finishes in this clone. While the start folder exists
 * (another folder of the same machine) every path is kept as stored.
 */
function rebaseOnto(startedIn: string | undefined, cwd: string): (path: string) => string {
  if (startedIn === undefined || startedIn === cwd || existsSync(startedIn)) return (path) => path;
  return (path) => {
    const inside = relative(startedIn, path);
    return inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside) ? path : resolve(cwd, inside);
  };
}

function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') && value.length > 0 ? (value as string[]) : undefined;
}

/** `budget.rerun` of the report a finished run wrote in its folder (budget-rerun.ts); undefined when it has none or the report is gone. */
function budgetRerunOf(outDir: string): string | undefined {
  try {
    const report = JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as { budget?: { rerun?: unknown } };
    return typeof report.budget?.rerun === 'string' ? report.budget.rerun : undefined;
  } catch {
    return undefined;
  }
}
