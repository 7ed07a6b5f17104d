import { ConfigError, parseUsdAmount } from '@parley/core';
import type { RunMode } from '@parley/core';
import { parseShard } from '@parley/gate';
import { Option, type Command } from 'commander';
import { integerFlag } from '../program/flags.js';
import { DEFAULT_REPORTER, REPORTER_NAMES } from '../reporters/reporter-names.js';

export interface RunFlags {
  mode?: string;
  judge?: string;
  scenario?: string[];
  tag?: string[];
  exclude?: string[];
  grep?: string[];
  /** `--list`: print the selected cases and exit without running. */
  list?: boolean;
  /** `--last-failed`: the cases that failed or errored in the suite's latest finished run. */
  lastFailed?: boolean;
  baseline?: string;
  exportBaseline?: string;
  /** `--export langfuse|otlp=URL`: send the finished run there (see export-command.ts). */
  export?: string;
  /** `--dataset NAME` with `--export langfuse`: record the run as an experiment on that dataset. */
  dataset?: string;
  strict?: boolean;
  repeat?: string;
  concurrency?: string;
  budget?: string;
  budgetPerShard?: boolean;
  budgetKey?: string;
  cache?: boolean;
  cacheClear?: boolean;
  shard?: string;
  changedSince?: string;
  reporter?: string[];
  format?: string;
  out?: string;
  resume?: string;
  seed?: string;
  agent?: string[];
}

const MODES: RunMode[] = ['replay', 'live', 'record'];

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** The flags of `parley run`, shared by `parley tui run` (which draws its own screen, so has no reporters). */
export function addRunFlags(command: Command): Command {
  // Reporters (`--reporter`, `--format`) belong to `parley run` alone: see addReporterFlags.
  return command
    .addOption(new Option('--mode <mode>', 'replay (default when recordings exist), live or record').choices(['replay', 'live', 'record']))
    .addOption(new Option('--judge <mode>', 'replay or live judging').choices(['replay', 'live']))
    .option('--scenario <glob>', 'only scenarios whose id matches (repeatable)', collect)
    .option('--tag <tag>', 'only scenarios with this tag (repeatable)', collect)
    .option('--exclude <glob>', 'leave out scenarios whose id matches (repeatable)', collect)
    .option('--grep <text>', 'only scenarios whose title or id contains TEXT, any case (repeatable)', collect)
    .option('--agent <name>', 'run every scenario against this agent instead of its own; twice or more compares them side by side (repeatable)', collect)
    .option('--baseline <file>', 'gate against a baseline file')
    .option('--export-baseline <file>', 'write a baseline from this run')
    .option('--export <destination>', 'send the finished run to langfuse or otlp=URL (traces, and scores for Langfuse)')
    .option('--dataset <name>', 'with --export langfuse: record the run as an experiment on this Langfuse dataset')
    .option('--strict', 'warnings, flaky results and missing baselines fail the run')
    .option('--repeat <n>', 'run every scenario N times')
    .option('--concurrency <n>', 'scenarios run in parallel')
    .option('--budget <usd>', 'spending limit (with --shard: the whole PR\'s, each shard gets budget / N)')
    .option('--budget-per-shard', 'with --shard: every shard gets the whole budget instead of budget / N')
    .option('--budget-key <key>', 'runs giving the same key (the shards of a PR) hold to one --budget in the store (else PARLEY_BUDGET_KEY; with --shard and a team store, derived from the CI run)')
    .option('--no-cache', 'ignore the judge cache')
    .option('--cache-clear', 'empty the judge cache first')
    .option('--shard <i/n>', 'run the I-th of N deterministic shards')
    .option('--changed-since <gitref>', 'run the scenarios affected by changes since GITREF')
    .option('--out <dir>', 'report folder (default .parley/runs/<run_id>)')
    .option('--resume <run_id>', 'finish an interrupted run')
    .option('--seed <n>', 'run seed: draws the judge cross-check sample (default 0; replay with the seed the recording was made with)');
}

/** Checks the flags of `parley run` and turns them into the orchestrator's options (bad values are configuration errors). */
export function runOptionsFromFlags(flags: RunFlags, parley = 'parley') {
  const judgeMode: 'live' | 'replay' | undefined = flags.judge === 'live' ? 'live' : flags.judge === 'replay' ? 'replay' : undefined;
  if (flags.judge !== undefined && judgeMode === undefined) throw new ConfigError(`--judge must be live or replay, got "${flags.judge}"`);
  const seed = flags.seed !== undefined ? integerFlag('--seed', flags.seed, 0) : undefined;
  if (flags.baseline !== undefined && flags.exportBaseline !== undefined) {
    throw new ConfigError('--baseline and --export-baseline cannot be used together');
  }
  let mode: RunMode | undefined;
  if (flags.mode !== undefined) {
    if (!MODES.includes(flags.mode as RunMode)) throw new ConfigError(`--mode must be one of ${MODES.join(', ')}, got "${flags.mode}"`);
    mode = flags.mode as RunMode;
  }
  const concurrency = flags.concurrency !== undefined ? integerFlag('--concurrency', flags.concurrency, 1) : undefined;
  const budgetUsd = flags.budget !== undefined ? parseUsdAmount(flags.budget, '--budget') : undefined;
  if (flags.resume !== undefined && flags.resume.trim() === '') throw new ConfigError(`--resume needs the id of an interrupted run (see ${parley} runs list)`);
  const repeat = flags.repeat !== undefined ? integerFlag('--repeat', flags.repeat, 1) : undefined;
  if (flags.changedSince !== undefined && flags.changedSince.trim() === '') throw new ConfigError('--changed-since needs a git ref (e.g. origin/main)');
  return {
    ...(repeat !== undefined ? { repeat } : {}),
    ...(flags.shard !== undefined ? { shard: parseShard(flags.shard) } : {}),
    ...(flags.changedSince !== undefined ? { changedSince: flags.changedSince.trim() } : {}),
    ...(flags.baseline !== undefined ? { baseline: flags.baseline } : {}),
    ...(flags.exportBaseline !== undefined ? { exportBaseline: flags.exportBaseline } : {}),
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
    ...(flags.budgetPerShard ? { budgetPerShard: true } : {}),
    ...(flags.budgetKey !== undefined && flags.budgetKey.trim() !== '' ? { budgetKey: flags.budgetKey.trim() } : {}),
    ...(flags.resume !== undefined ? { resume: flags.resume.trim() } : {}),
    ...(mode ? { mode } : {}),
    ...(concurrency ? { concurrency } : {}),
    ...(flags.scenario?.length ? { globs: flags.scenario } : {}),
    ...(flags.tag?.length ? { tags: flags.tag } : {}),
    ...(flags.exclude?.length ? { exclude: flags.exclude } : {}),
    ...(flags.grep?.length ? { grep: flags.grep } : {}),
    ...(flags.agent?.length ? { agents: flags.agent } : {}),
    ...(flags.strict ? { strict: true } : {}),
    ...(flags.out ? { outDir: flags.out } : {}),
    ...(judgeMode ? { judgeMode } : {}),
    ...(flags.cache === false ? { noCache: true } : {}),
    ...(flags.cacheClear ? { cacheClear: true } : {}),
    ...(seed !== undefined ? { seed } : {}),
  };
}

/** The reporters `--reporter` takes, from the reporter map: `console (default), json, … or github`. */
function reporterList(): string {
  const names = REPORTER_NAMES.map((name) => (name === DEFAULT_REPORTER ? `${name} (default)` : name));
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** `--reporter` (repeatable) and `--format` of `parley run`. */
export function addReporterFlags(command: Command): Command {
  return command
    .option('--reporter <name>', `${reporterList()} (repeatable; github is added by default when GITHUB_ACTIONS=true)`, collect)
    .addOption(new Option('--format <format>', 'json: the report on stdout and nothing else (same as --reporter json)').choices(['text', 'json']));
}
