import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '@parley/core';
import type { runTui, TuiOptions } from '@parley/tui';
import { parleyIn, type CommandContext, type ProgramContext } from '../program/command-context.js';
import { addRunFlags, runOptionsFromFlags, type RunFlags } from './run-flags.js';

interface TuiFlags {
  dir: string;
}

type TuiStart = 'index' | 'rate' | 'kappa' | 'live';

/**
 * Adds `parley tui [suite]`, `tui rate`, `tui kappa` and `tui run`. The Ink app is
 * imported here, on demand, so no other command ever loads Ink or React.
 */
export function register(program: Command, context: ProgramContext): void {
  const dirHelp = 'calibration folder (human_labelled.yaml, rubric.md, reports/)';
  const tui = program
    .command('tui')
    .description('the terminal UI: agents, runs and failure triage (rate, kappa and run open the other screens)')
    .argument('[suite]', 'suite folder or parley.yaml', '.')
    .option('--dir <dir>', dirHelp, 'calibration')
    .action(async (suite: string, flags: TuiFlags) => context.setExitCode(await openTui('index', suite, flags, context)));
  tui
    .command('rate')
    .description("the reviewer's rating session: one masked transcript at a time, 1-5 on each axis")
    .option('--reviewer <name>', 'who is rating (default $PARLEY_REVIEWER, else the login name)')
    .option('--dir <dir>', dirHelp, 'calibration')
    // `--dir` is also an option of `tui`, which commander gives it to: read it with the parent's.
    .action(async (_flags: TuiFlags, command: Command) => {
      const flags = command.optsWithGlobals<TuiFlags & { reviewer?: string }>();
      context.setExitCode(await openTui('rate', '.', flags, context, { reviewer: reviewerName(flags.reviewer, context) }));
    });
  tui
    .command('kappa')
    .description('the latest calibration report: kappa per axis against the gate, confusion matrices, trend')
    .option('--dir <dir>', dirHelp, 'calibration')
    .action(async (_flags: TuiFlags, command: Command) => context.setExitCode(await openTui('kappa', '.', command.optsWithGlobals<TuiFlags>(), context)));
  addRunFlags(
    tui
      .command('run')
      .description('run a suite and watch it: progress per scenario, spend against budget, failures as they happen')
      .argument('[suite]', 'suite folder or parley.yaml', '.'),
  ).action(async (suite: string, flags: RunFlags) =>
    context.setExitCode(await openTui('live', suite, { dir: 'calibration' }, context, { runOptions: { suitePath: suite, ...runOptionsFromFlags(flags, parleyIn(context)) } })),
  );
  for (const command of [tui, ...tui.commands]) command.exitOverride();
}

async function openTui(
  start: TuiStart,
  suite: string,
  flags: TuiFlags,
  context: CommandContext,
  extra: { reviewer?: string; runOptions?: TuiOptions['runOptions'] } = {},
): Promise<number> {
  if (!context.output.terminal) {
    throw new ConfigError(`parley tui needs an interactive terminal; in scripts and CI use \`${parleyIn(context)} run\`, \`${parleyIn(context)} runs\` and \`${parleyIn(context)} calibrate\``);
  }
  const { runTui } = await importTui();
  return runTui({
    start,
    cwd: context.cwd,
    env: context.env,
    clock: context.clock,
    random: context.random,
    suitePath: resolve(context.cwd, suite),
    storePath: (await import('@parley/store')).defaultStorePath(context.cwd),
    calibrationDir: resolve(context.cwd, flags.dir),
    ...(extra.reviewer ? { reviewer: extra.reviewer } : {}),
    ...(extra.runOptions ? { runOptions: { ...extra.runOptions, suitePath: resolve(context.cwd, extra.runOptions.suitePath) } } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
    parleyCommand: () => parleyIn(context),
  });
}

function reviewerName(flag: string | undefined, context: CommandContext): string {
  const name = flag ?? context.env.PARLEY_REVIEWER ?? safeLoginName();
  if (!name || name.trim() === '') throw new ConfigError('parley tui rate needs a reviewer name: --reviewer NAME');
  return name.trim();
}

function safeLoginName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}

/**
 * Ink's layout engine (yoga) loads its inlined WebAssembly through `fetch()` whenever `fetch`
 * exists, which makes Node load its whole HTTP client first (the first frame took 0.362 s
 * instead of 0.339 s, median of 7, `npm run bench:tui`). Without `fetch` it decodes the inlined bytes directly. `fetch` is put back as soon as
 * the import (and so the WebAssembly set-up) is done, before anything could call it.
 */
async function importTui(): Promise<{ runTui: typeof runTui }> {
  const fetchProperty = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (fetchProperty?.configurable) Reflect.deleteProperty(globalThis, 'fetch');
  try {
    return await import('@parley/tui');
  } finally {
    if (fetchProperty?.configurable) Object.defineProperty(globalThis, 'fetch', fetchProperty);
  }
}
