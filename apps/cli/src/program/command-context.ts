import type { Clock, Random } from '@parley/core';
import type { Command } from 'commander';
import type { Output } from '../output/output.js';

/** Everything a command needs from the outside world, injected so tests run commands in-process. */
export interface CommandContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  output: Output;
  clock: Clock;
  random: Random;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal;
  /**
   * Configuration errors are also printed as GitHub workflow commands (annotations): in GitHub
   * Actions by default, or with `--reporter github`.
   */
  githubAnnotations?: boolean;
  /**
   * How the person runs Parley from their shell (`parley` or `npx parley`, see parley-command.ts),
   * for the commands Parley prints to be pasted; computed when first asked. `parley` when left out.
   */
  parleyCommand?: () => string;
}

/** The words that start a Parley command a person can paste here: `parley` or `npx parley`. */
export function parleyIn(context: Pick<CommandContext, 'parleyCommand'>): string {
  return context.parleyCommand?.() ?? 'parley';
}

/** What a command's `register` receives: the context, and where its action leaves the exit code. */
export interface ProgramContext extends CommandContext {
  setExitCode(code: number): void;
}

/**
 * The one shape of a command module (`commands/<name>.ts` exports `register`): it adds the command
 * and its subcommands, with their options and help, to the program. An action imports what it
 * needs when it runs (`await import(...)`), so registering every command stays cheap.
 */
export type RegisterCommand = (program: Command, context: ProgramContext) => void;
