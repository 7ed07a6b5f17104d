import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from '@parley/core';
import type { ResumeState } from './resume-run.js';
import type { RunOptions } from './run-options.js';

type ResumedKey = Exclude<keyof ResumeState['options'], 'suitePath'>;

/** The flags a resumed run takes from the stored run, by option. */
const RESUMED_FLAGS: ReadonlyArray<[ResumedKey, string]> = [
  ['mode', '--mode'],
  ['judgeMode', '--judge'],
  ['globs', '--scenario'],
  ['tags', '--tag'],
  ['exclude', '--exclude'],
  ['grep', '--grep'],
  ['onlyCases', '--last-failed'],
  ['agents', '--agent'],
  ['concurrency', '--concurrency'],
  ['strict', '--strict'],
  ['budgetUsd', '--budget'],
  ['budgetPerShard', '--budget-per-shard'],
  ['budgetKey', '--budget-key'],
  ['seed', '--seed'],
  ['noCache', '--no-cache'],
  ['repeat', '--repeat'],
  ['baseline', '--baseline'],
  ['exportBaseline', '--export-baseline'],
  ['shard', '--shard'],
  ['changedSince', '--changed-since'],
];

/**
 * `--resume RUN_ID` finishes the run with the flags it was started with: a flag given again that
 * the stored run decides (its baseline, shard, repeats, selection …) would be ignored, or would
 * apply to the rest of the run only. Refused (exit 2) unless its value is the stored one; the
 * message names every such flag.
 *
 * @throws ConfigError naming the flags given with another value than the stored run's
 */
export function refuseResumeOverrides(given: RunOptions, resumed: ResumeState, cwd: string): void {
  const stored = resumed.options as Record<string, unknown>;
  const offered = given as unknown as Record<string, unknown>;
  const conflicts: string[] = [];
  for (const [key, flag] of RESUMED_FLAGS) {
    const value = offered[key];
    if (value === undefined) continue;
    const normalize = (item: unknown): unknown => normalized(key, item, cwd);
    if (JSON.stringify(normalize(value)) === JSON.stringify(normalize(stored[key]))) continue;
    conflicts.push(`${shown(key, flag, value)} (the run has ${stored[key] === undefined ? `no ${flag}` : shown(key, flag, stored[key])})`);
  }
  if (conflicts.length === 0) return;
  throw new ConfigError(`--resume ${resumed.runId} finishes the run with the flags it was started with; leave out ${conflicts.join(', ')}`);
}

/** A value as compared: files resolved, unset booleans false, an unset repeat 1, a shard as I/N. */
function normalized(key: ResumedKey, value: unknown, cwd: string): unknown {
  if (key === 'baseline' || key === 'exportBaseline') return typeof value === 'string' ? (isAbsolute(value) ? value : resolve(cwd, value)) : null;
  if (key === 'strict' || key === 'budgetPerShard' || key === 'noCache') return value === true;
  if (key === 'repeat') return value ?? 1;
  if (key === 'shard') return shardText(value) ?? null;
  return value ?? null;
}

function shown(key: ResumedKey, flag: string, value: unknown): string {
  if (value === true) return flag;
  // `--last-failed` takes no value: the cases it selected are counted.
  if (key === 'onlyCases' && Array.isArray(value)) return `${flag} (${value.length} ${value.length === 1 ? 'case' : 'cases'})`;
  const shard = shardText(value);
  if (shard !== undefined) return `${flag} ${shard}`;
  if (Array.isArray(value)) return value.map((item) => `${flag} ${String(item)}`).join(' ');
  return `${flag} ${String(value)}`;
}

function shardText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { index, total } = value as { index?: unknown; total?: unknown };
  return typeof index === 'number' && typeof total === 'number' ? `${index}/${total}` : undefined;
}
