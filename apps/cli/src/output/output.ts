import pc from 'picocolors';
import type { RunStatus } from '@parley/core';

/** Where the CLI writes: injected so tests capture output without touching process streams. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is an interactive terminal (progress bar instead of plain lines). */
  interactive: boolean;
  /** True when both stdin and stdout are a terminal: the TUI can take keys and draw. */
  terminal: boolean;
  /** False under NO_COLOR, FORCE_COLOR=0, TERM=dumb, `--no-color`, or when not writing to a terminal. */
  color: boolean;
  /** Width to fit tables and lines into: the terminal's, else `COLUMNS`, else 80. */
  columns: number;
  /**
   * True when a person reads the output in a terminal: long messages wrap to `columns`. Off a
   * terminal (CI logs, pipes, editors' problem matchers) a message stays one line, for tools.
   */
  wrap: boolean;
}

/** Width used off a terminal (CI logs, pipes) when `COLUMNS` does not say otherwise. */
const DEFAULT_COLUMNS = 80;

export function processOutput(env: NodeJS.ProcessEnv = process.env): Output {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    interactive: Boolean(process.stderr.isTTY) && env.CI !== 'true',
    // Read when asked (tui, init, show-report): process.stdin is created on first use, and making
    // it for a pipe or a file loads Node's stream modules (~2 ms of every command's CPU).
    get terminal() {
      return Boolean(process.stdin.isTTY) && Boolean(process.stdout.isTTY);
    },
    color: colorEnabled(env, Boolean(process.stdout.isTTY)),
    columns: outputColumns(env, process.stdout.isTTY ? process.stdout.columns : undefined),
    wrap: Boolean(process.stdout.isTTY) || Boolean(process.stderr.isTTY),
  };
}

/**
 * Whether to write colour codes, by the conventions other tools follow: `NO_COLOR` (any non-empty
 * value) turns colour off; `FORCE_COLOR=0` (or `false`) turns it off and any other `FORCE_COLOR`
 * turns it on even off a terminal; otherwise colour only on a terminal that is not `TERM=dumb`.
 */
export function colorEnabled(env: NodeJS.ProcessEnv, isTerminal: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return isTerminal && env.TERM !== 'dumb';
}

/** The terminal's width; off a terminal `COLUMNS` when it is a sensible number, else 80. */
export function outputColumns(env: NodeJS.ProcessEnv, terminalColumns: number | undefined): number {
  if (terminalColumns !== undefined && terminalColumns > 0) return terminalColumns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv >= 40 ? fromEnv : DEFAULT_COLUMNS;
}

export interface Paint {
  status(status: RunStatus, text?: string): string;
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
}

export function paint(enabled: boolean): Paint {
  const colors = pc.createColors(enabled);
  const byStatus: Record<RunStatus, (text: string) => string> = {
    pass: colors.green,
    fail: colors.red,
    error: colors.magenta,
    warn: colors.yellow,
    flaky: colors.yellow,
    skipped: colors.gray,
    interrupted: colors.yellow,
  };
  return {
    status: (status, text = status) => byStatus[status](text),
    dim: colors.dim,
    bold: colors.bold,
    red: colors.red,
    yellow: colors.yellow,
  };
}

/**
 * `1 scenario`, `3 scenarios`, `0 entries`: a count with its noun in the right number.
 *
 * @example counted(1, 'warning') === '1 warning'
 */
export function counted(count: number, noun: string, many = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : many}`;
}
