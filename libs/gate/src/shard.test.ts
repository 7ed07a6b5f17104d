import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatShard, inShard, parseShard, shardOf } from './shard.js';

describe('parseShard', () => {
  it('reads I/N', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, total: 3 });
    expect(parseShard('1/1')).toEqual({ index: 1, total: 1 });
    expect(formatShard(parseShard(' 3 / 4 '))).toBe('3/4');
  });

  it.each(['0/3', '4/3', '1/0', '2', 'a/b', '1/2/3', '-1/2', '1.5/3'])('refuses %s', (text) => {
    expect(() => parseShard(text)).toThrow(/--shard must be I\/N/);
  });
});

describe('shardOf', () => {
  it('puts every scenario in exactly one shard, the same one every time', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z0-9_-]{1,20}$/)), fc.integer({ min: 1, max: 8 }), (ids, total) => {
        for (const id of ids) {
          const shards = Array.from({ length: total }, (_, index) => index + 1).filter((index) => inShard(id, { index, total }));
          expect(shards).toEqual([shardOf(id, total)]);
        }
      }),
    );
  });

  it('is fixed by the id alone (a stable partition across machines and versions)', () => {
    expect(['spa_booking_swahili_happy', 'spa_price_question_sw', 'q_1'].map((id) => shardOf(id, 3))).toEqual(
      ['spa_booking_swahili_happy', 'spa_price_question_sw', 'q_1'].map((id) => shardOf(id, 3)),
    );
    expect(shardOf('anything', 1)).toBe(1);
  });

  it('spreads many scenarios roughly evenly', () => {
    const counts = [0, 0, 0];
    for (let index = 0; index < 3000; index += 1) counts[shardOf(`scenario_${index}`, 3) - 1]! += 1;
    for (const count of counts) expect(count).toBeGreaterThan(850);
  });
});
