import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketThreshold, hashBucket, isInPercentage } from './hash-bucket.js';

describe('hashBucket', () => {
  // Pinned vectors: a router in another language reproduces these (the Python one-liner in
  // docs/production.md gives the same numbers). If one changes, every deployed router disagrees
  // with Parley about who is in the canary: never update them to make a test pass.
  it.each([
    ['parley-canary', 'conv-1', 9598],
    ['parley-canary', 'conv-2', 6431],
    ['parley-canary', 'conv-4', 36],
    ['parley-canary', 'conv-24', 331],
    ['', 'conv-1', 4428],
    ['tenant-42', '8f14e45f-ceea-467f-a5d6-1b1a2d3c4e5f', 5474],
    ['parley-canary', 'café ☕', 3517],
    ['parley-monitor', 'conv-1', 6557],
  ])('salt %j, id %j → bucket %i', (salt, id, bucket) => {
    expect(hashBucket(salt, id)).toBe(bucket);
  });

  it('reads the first 8 bytes of sha256(salt:id) as a big-endian integer, modulo 10,000', () => {
    const prefix = createHash('sha256').update('parley-canary:conv-1').digest('hex').slice(0, 16);
    expect(prefix).toBe('6f245fd4ddcdc34e');
    expect(Number(BigInt(`0x${prefix}`) % 10_000n)).toBe(hashBucket('parley-canary', 'conv-1'));
  });

  it('always lands in 0–9,999', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (salt, id) => {
        const bucket = hashBucket(salt, id);
        return Number.isInteger(bucket) && bucket >= 0 && bucket < 10_000;
      }),
    );
  });
});

describe('isInPercentage', () => {
  it('puts 5 % ± 0.5 % of 100,000 ids inside, the same ids every time', () => {
    const ids = Array.from({ length: 100_000 }, (_, index) => `conversation-${index}`);
    const inside = ids.filter((id) => isInPercentage('parley-canary', id, 5));
    expect(inside.length / ids.length).toBeGreaterThanOrEqual(0.045);
    expect(inside.length / ids.length).toBeLessThanOrEqual(0.055);
    const again = ids.filter((id) => isInPercentage('parley-canary', id, 5));
    expect(again).toEqual(inside);
  });

  it('only adds ids when the percentage grows', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), (id, a, b) => {
        const [low, high] = a <= b ? [a / 100, b / 100] : [b / 100, a / 100];
        return !isInPercentage('s', id, low) || isInPercentage('s', id, high);
      }),
    );
  });

  it('takes nobody at 0 % and everybody at 100 %', () => {
    fc.assert(fc.property(fc.string(), (id) => !isInPercentage('s', id, 0) && isInPercentage('s', id, 100)));
  });
});

describe('bucketThreshold', () => {
  it('is the percentage in hundredths', () => {
    expect(bucketThreshold(5)).toBe(500);
    expect(bucketThreshold(2.5)).toBe(250);
    expect(bucketThreshold(0.01)).toBe(1);
  });

  it('refuses percentages outside 0–100 or finer than 0.01 %', () => {
    expect(() => bucketThreshold(-1)).toThrow(RangeError);
    expect(() => bucketThreshold(101)).toThrow(RangeError);
    expect(() => bucketThreshold(Number.NaN)).toThrow(RangeError);
    expect(() => bucketThreshold(0.005)).toThrow(/two decimals/);
  });
});
