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
  /** False under NO_COLOR or when not writing to a terminal. */
  color: boolean;
  /** Width to fit tables into: the terminal's, or 100 columns off a terminal. */
  columns: number;
}

export function processOutput(env: NodeJS.ProcessEnv = process.env): Output {
  const noColor = 'NO_COLOR' in env && env.NO_COLOR !== '';
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    interactive: Boolean(process.stderr.isTTY) && env.CI !== 'true',
    terminal: Boolean(process.stdin.isTTY) && Boolean(process.stdout.isTTY),
    color: !noColor && (Boolean(process.stdout.isTTY) || 'FORCE_COLOR' in env),
    columns: process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : 100,
  };
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
