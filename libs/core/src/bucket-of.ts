import { createHash } from 'node:crypto';

/** Buckets of `bucketOf`: a rollout or sample of p % is the buckets below p × 100. */
export const BUCKETS = 10_000;

/**
 * The deterministic hash bucket of an id (seed 000 D7): the first 8 bytes of
 * sha256(`<salt>:<id>`) (UTF-8) read as an unsigned big-endian 64-bit integer, modulo 10,000.
 * Any language computes the same bucket, so a router in Python or Go and Parley agree on which
 * conversations are in a sample or a canary: an id is in a p % slice when its bucket is below
 * p × 100. Different salts give independent slices.
 *
 * @example
 * bucketOf('wa:254722118904:2026-11-27', 'monitor') // a number in 0..9999, the same on every machine
 */
export function bucketOf(id: string, salt: string): number {
  const digest = createHash('sha256').update(`${salt}:${id}`, 'utf8').digest();
  return Number(digest.readBigUInt64BE(0) % BigInt(BUCKETS));
}

/** Whether an id falls in a slice of `percent` % (0–100, up to two decimals) under `salt`. */
export function inSlice(id: string, salt: string, percent: number): boolean {
  return bucketOf(id, salt) < Math.round(percent * (BUCKETS / 100));
}
