import { createHash } from 'node:crypto';

/** How many buckets the ids are spread over: one bucket is 0.01 % of the traffic. */
const BUCKET_COUNT = 10_000;

/**
 * The bucket (0–9,999) an id falls into for a salt: the first 8 bytes of
 * sha256(utf8(salt + ":" + id)) read as a big-endian unsigned 64-bit integer, modulo 10,000.
 * The same id and salt give the same bucket on every machine and in every language, so a
 * production router, `parley canary assign` and `parley monitor`'s sample agree.
 * Different salts give independent buckets (the canary and the monitoring sample do not overlap
 * by construction).
 *
 * @example hashBucket('parley-canary', 'conv-1') // → 9598 (pinned in hash-bucket.test.ts)
 */
export function hashBucket(salt: string, id: string): number {
  const digest = createHash('sha256').update(`${salt}:${id}`, 'utf8').digest();
  return Number(digest.readBigUInt64BE(0) % BigInt(BUCKET_COUNT));
}

/**
 * The bucket threshold for a percentage (0–100, at most two decimals): an id is inside the
 * percentage when its bucket is below `percent × 100`. Throws a RangeError outside 0–100 or
 * with a finer step than 0.01 %.
 */
export function bucketThreshold(percent: number): number {
  if (!Number.isFinite(percent) || percent < 0 || percent > 100) {
    throw new RangeError(`a percentage must be between 0 and 100, got ${percent}`);
  }
  const threshold = Math.round(percent * 100);
  if (Math.abs(threshold - percent * 100) > 1e-6) {
    throw new RangeError(`a percentage has at most two decimals (steps of 0.01 %), got ${percent}`);
  }
  return threshold;
}

/**
 * Whether an id is inside `percent` % of the traffic for a salt (`hashBucket(salt, id) <
 * percent × 100`). Growing the percentage only adds ids: everyone inside 5 % stays inside 10 %.
 */
export function isInPercentage(salt: string, id: string, percent: number): boolean {
  return hashBucket(salt, id) < bucketThreshold(percent);
}
