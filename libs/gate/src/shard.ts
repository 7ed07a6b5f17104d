import { ConfigError, sha256Hex } from '@parley/core';

/** `--shard I/N`: the I-th (1-based) of N shards. */
export interface Shard {
  index: number;
  total: number;
}

/**
 * Parses `--shard I/N` (1 ≤ I ≤ N). Anything else is a ConfigError saying what is expected.
 *
 * @example parseShard('2/3') // { index: 2, total: 3 }
 */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const total = match ? Number(match[2]) : NaN;
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(total) || total < 1 || index < 1 || index > total) {
    throw new ConfigError(`--shard must be I/N with 1 ≤ I ≤ N (e.g. --shard 2/3), got "${text}"`);
  }
  return { index, total };
}

/**
 * The shard (1-based) a scenario belongs to among `total`: the first 48 bits of the sha256 of its
 * id, modulo `total`. Depends on nothing but the id, so every CI job computes the same partition
 * whatever the machine, the order of files or the other scenarios; adding a scenario never moves
 * another one.
 */
export function shardOf(scenarioId: string, total: number): number {
  return (parseInt(sha256Hex(scenarioId).slice(0, 12), 16) % total) + 1;
}

/** Whether a scenario runs in this shard. */
export function inShard(scenarioId: string, shard: Shard): boolean {
  return shardOf(scenarioId, shard.total) === shard.index;
}

/** `2/3`, as the flag is written. */
export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.total}`;
}
