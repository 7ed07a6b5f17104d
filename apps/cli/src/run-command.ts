import { ConfigError } from '@parley/core';
import type { RunMode } from '@parley/core';
import { parseShard } from '@parley/gate';
import { judgeSummary } from '@parley/reports';
import type { CommandContext } from './command-context.js';
import { gateNotes } from './gate-notes.js';
import { paint } from './output.js';
import { runProgress } from './run-progress.js';
import { renderRunSummary } from './run-summary.js';

export interface RunFlags {
  mode?: string;
  judge?: string;
  scenario?: string[];
  tag?: string[];
  baseline?: string;
  exportBaseline?: string;
  strict?: boolean;
  repeat?: string;
  concurrency?: string;
  budget?: string;
  cache?: boolean;
  cacheClear?: boolean;
  shard?: string;
  changedSince?: string;
  reporter?: string;
  out?: string;
  resume?: string;
  seed?: string;
}

const MODES: RunMode[] = ['replay', 'live', 'record'];

/** Flags the SPEC defines whose capability later work adds: refused clearly instead of ignored. */
const NOT_YET: Array<[keyof RunFlags, string]> = [['reporter', '--reporter']];

export async function runCommand(suiteArgument: string | undefined, flags: RunFlags, context: CommandContext): Promise<number> {
  const options = checkFlags(flags);
  const { runSuite } = await import('@parley/runner');
  const progress = runProgress(context.output);
  try {
    const outcome = await runSuite(
      {
        suitePath: suiteArgument ?? '.',
        ...options,
        ...(context.env.GITHUB_STEP_SUMMARY ? { githubStepSummary: context.env.GITHUB_STEP_SUMMARY } : {}),
        ...(context.signal ? { signal: context.signal } : {}),
      },
      { cwd: context.cwd, env: context.env, clock: context.clock, random: context.random, listeners: [progress.listener] },
    );
    context.output.out(
      renderRunSummary(outcome.report, paint(context.output.color), displayPath(outcome.out_dir, context.cwd), context.output.columns),
    );
    const notes = gateNotes(outcome.report, outcome.exported_baseline && { file: displayPath(outcome.exported_baseline.file, context.cwd), entries: outcome.exported_baseline.entries });
    const judge = judgeSummary(outcome.report.judge);
    if (judge !== null) context.output.out(`${judge}\n`);
    if (notes.err) context.output.err(notes.err);
    if (notes.out) context.output.out(notes.out);
    if (outcome.interrupted) context.output.err('interrupted: finished results are kept in the reports and .parley/parley.db\n');
    return outcome.exit_code;
  } finally {
    progress.stop();
  }
}

function checkFlags(flags: RunFlags) {
  for (const [key, flag] of NOT_YET) {
    if (flags[key] !== undefined) {
      throw new ConfigError(`${flag} is part of the SPEC but not available in this version of Parley yet`);
    }
  }
  const judgeMode: 'live' | 'replay' | undefined = flags.judge === 'live' ? 'live' : flags.judge === 'replay' ? 'replay' : undefined;
  if (flags.judge !== undefined && judgeMode === undefined) throw new ConfigError(`--judge must be live or replay, got "${flags.judge}"`);
  let seed: number | undefined;
  if (flags.seed !== undefined) {
    seed = Number(flags.seed);
    if (!Number.isSafeInteger(seed) || seed < 0) throw new ConfigError(`--seed must be a whole number ≥ 0, got "${flags.seed}"`);
  }
  if (flags.baseline !== undefined && flags.exportBaseline !== undefined) {
    throw new ConfigError('--baseline and --export-baseline cannot be used together');
  }
  let mode: RunMode | undefined;
  if (flags.mode !== undefined) {
    if (!MODES.includes(flags.mode as RunMode)) throw new ConfigError(`--mode must be one of ${MODES.join(', ')}, got "${flags.mode}"`);
    mode = flags.mode as RunMode;
  }
  let concurrency: number | undefined;
  if (flags.concurrency !== undefined) {
    concurrency = Number(flags.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new ConfigError(`--concurrency must be a positive integer, got "${flags.concurrency}"`);
  }
  let budgetUsd: number | undefined;
  if (flags.budget !== undefined) {
    budgetUsd = Number(flags.budget.replace(/^\$/, ''));
    if (flags.budget.trim() === '' || !Number.isFinite(budgetUsd) || budgetUsd < 0) {
      throw new ConfigError(`--budget must be an amount of US dollars ≥ 0 (e.g. 5 or 0.50), got "${flags.budget}"`);
    }
  }
  if (flags.resume !== undefined && flags.resume.trim() === '') throw new ConfigError('--resume needs the id of an interrupted run (see parley runs list)');
  let repeat: number | undefined;
  if (flags.repeat !== undefined) {
    repeat = Number(flags.repeat);
    if (!Number.isInteger(repeat) || repeat < 1) throw new ConfigError(`--repeat must be a positive integer, got "${flags.repeat}"`);
  }
  if (flags.changedSince !== undefined && flags.changedSince.trim() === '') throw new ConfigError('--changed-since needs a git ref (e.g. origin/main)');
  return {
    ...(repeat !== undefined ? { repeat } : {}),
    ...(flags.shard !== undefined ? { shard: parseShard(flags.shard) } : {}),
    ...(flags.changedSince !== undefined ? { changedSince: flags.changedSince.trim() } : {}),
    ...(flags.baseline !== undefined ? { baseline: flags.baseline } : {}),
    ...(flags.exportBaseline !== undefined ? { exportBaseline: flags.exportBaseline } : {}),
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
    ...(flags.resume !== undefined ? { resume: flags.resume.trim() } : {}),
    ...(mode ? { mode } : {}),
    ...(concurrency ? { concurrency } : {}),
    ...(flags.scenario?.length ? { globs: flags.scenario } : {}),
    ...(flags.tag?.length ? { tags: flags.tag } : {}),
    ...(flags.strict ? { strict: true } : {}),
    ...(flags.out ? { outDir: flags.out } : {}),
    ...(judgeMode ? { judgeMode } : {}),
    ...(flags.cache === false ? { noCache: true } : {}),
    ...(flags.cacheClear ? { cacheClear: true } : {}),
    ...(seed !== undefined ? { seed } : {}),
  };
}

function displayPath(path: string, cwd: string): string {
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}
