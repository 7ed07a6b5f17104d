import { join, resolve } from 'node:path';
import { ConfigError } from '@parley/core';
import type { CommandContext } from './command-context.js';

export interface CompareFlags {
  format?: string;
  seed?: string;
  resamples?: string;
}

/**
 * `parley compare A B`: two stored runs (id or prefix) or report files/folders, offline. Prints
 * the comparison (text, or JSON with `--format json`) and exits 0: it informs, the gate is `run`.
 */
export async function compareCommand(before: string, after: string, flags: CompareFlags, context: CommandContext): Promise<number> {
  const format = flags.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new ConfigError(`--format must be text or json, got "${format}"`);
  const seed = integerFlag('--seed', flags.seed, 1, 0);
  const resamples = integerFlag('--resamples', flags.resamples, 10_000, 100);
  const { compareRuns, loadRunScores, renderComparison } = await import('@parley/compare');
  const where = { cwd: context.cwd, storePath: resolve(context.cwd, join('.parley', 'parley.db')) };
  const comparison = compareRuns(loadRunScores(before, where), loadRunScores(after, where), { seed, resamples });
  context.output.out(format === 'json' ? `${JSON.stringify(comparison, null, 2)}\n` : renderComparison(comparison));
  return 0;
}

function integerFlag(name: string, value: string | undefined, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < minimum) throw new ConfigError(`${name} must be a whole number ≥ ${minimum}, got "${value}"`);
  return number;
}
