import { describe, expect, it } from 'vitest';
import { cachedOrClaimed } from './judge-claiming.js';
import { openJudgeCache, type JudgeCacheRecord } from './judge-cache-store.js';
import { openSql } from './open-sql.js';
import { storeDrivers, useStoreDriver } from './test-support/each-driver.js';

function record(key: string, overrides: Partial<JudgeCacheRecord> = {}): JudgeCacheRecord {
  return {
    key,
    scenario_id: 'spa_booking_swahili_happy',
    metric: 'fluency_sw',
    metric_version: '1.0.0',
    judge_model: 'anthropic:claude-opus-4-7',
    prompt_version: 'booking@abc1234',
    value: { verdict: { score: 0.9, unmet_required: [], summary: 'Natural.', details: {} }, calls: 1 },
    cost_usd: 0.0125,
    created_at: '2026-11-26T12:00:00.000Z',
    ...overrides,
  };
}

describe.each(storeDrivers)('openJudgeCache on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('keeps verdicts in the store across connections', () => {
    const path = database.path;
    const cache = openJudgeCache(path, () => new Date('2026-11-27T08:00:00Z'));
    cache.put(record('k1'));
    cache.close();
    const reopened = openJudgeCache(path);
    expect(reopened.get('k1')).toEqual(record('k1'));
    expect(reopened.get('missing')).toBeUndefined();
    reopened.close();
  });

  it('counts hits and what they saved, per metric and judge model', () => {
    const cache = openJudgeCache(database.path, () => new Date('2026-11-27T08:00:00Z'));
    cache.put(record('k1'));
    cache.put(record('k2', { metric: 'conversation_judge', cost_usd: 0.02, created_at: '2026-11-26T13:00:00.000Z' }));
    cache.get('k1');
    cache.get('k1');
    cache.get('k2');
    expect(cache.stats()).toEqual({
      path: database.path,
      entries: 2,
      hits: 3,
      saved_usd: expect.closeTo(2 * 0.0125 + 0.02, 12),
      stored_cost_usd: expect.closeTo(0.0325, 12),
      oldest: '2026-11-26T12:00:00.000Z',
      newest: '2026-11-26T13:00:00.000Z',
      by_metric: [
        { name: 'conversation_judge@1.0.0', entries: 1, hits: 1 },
        { name: 'fluency_sw@1.0.0', entries: 1, hits: 2 },
      ],
      by_judge_model: [{ name: 'anthropic:claude-opus-4-7', entries: 2, hits: 3 }],
      judging_now: 0,
    });
    cache.put(record('k3', { cost_usd: null }));
    cache.get('k3');
    expect(cache.stats()).toMatchObject({ saved_usd: null, stored_cost_usd: null });
    cache.close();
  });

  it('replaces an entry judged again, and clears all entries or those of one metric or scenario', () => {
    const cache = openJudgeCache(database.path);
    cache.put(record('k1'));
    cache.get('k1');
    cache.put(record('k1', { cost_usd: 0.5 }));
    expect(cache.stats()).toMatchObject({ entries: 1, hits: 0, stored_cost_usd: 0.5 });
    cache.put(record('k2', { metric: 'conversation_judge' }));
    cache.put(record('k3', { scenario_id: 'other' }));
    expect(cache.clear({ metric: 'conversation_judge' })).toBe(1);
    expect(cache.clear({ scenario: 'other' })).toBe(1);
    expect(cache.clear()).toBe(1);
    expect(cache.stats().entries).toBe(0);
    cache.close();
  });

  it('treats an unreadable entry as absent (it is judged afresh)', () => {
    const cache = openJudgeCache(database.path);
    cache.put(record('k1'));
    const raw = openSql(database.path);
    raw.run("UPDATE judge_cache SET value_json = '{broken' WHERE key = 'k1'");
    raw.close();
    expect(cache.get('k1')).toBeUndefined();
    cache.close();
  });

  it('lets one handle claim a verdict to judge while another waits, until it is released or its lease runs out', () => {
    let clock = Date.parse('2026-11-27T08:00:00Z');
    const first = openJudgeCache(database.path, () => new Date(clock));
    const second = openJudgeCache(database.path, () => new Date(clock));
    try {
      expect(first.claim('k1', 30_000)).toBe('claimed');
      expect(second.claim('k1', 30_000)).toBe('held');
      expect(second.stats().judging_now).toBe(1);
      first.put(record('k1'));
      first.release('k1');
      expect(second.stats().judging_now).toBe(0);
      // The waiter finds the verdict: a hit, no judging.
      expect(second.get('k1')).toEqual(record('k1'));
      expect(second.claim('k2', 30_000)).toBe('claimed');
      clock += 20_000;
      expect(second.renew('k2', 30_000)).toBe(true);
      clock += 29_000;
      expect(first.claim('k2', 30_000)).toBe('held');
      // The holder went silent: once its lease is past it is judging nothing, and the other takes the judging over.
      clock += 2_000;
      expect(first.stats().judging_now).toBe(0);
      expect(first.claim('k2', 30_000)).toBe('claimed');
      expect(second.renew('k2', 30_000)).toBe(false);
    } finally {
      first.close();
      second.close();
    }
  });

  it('reads the verdict, not judging it again, when its holder stores it and lets go between a look and a claim', async () => {
    const holder = openJudgeCache(database.path);
    const asker = openJudgeCache(database.path);
    try {
      expect(holder.claim('k1', 30_000)).toBe('claimed');
      // The asker looks (nothing yet); before it claims, the holder stores its verdict and releases.
      let looks = 0;
      const interleaved = {
        get: (key: string) => {
          const found = asker.get(key);
          looks += 1;
          if (looks === 1) {
            holder.put(record('k1'));
            holder.release('k1');
          }
          return found;
        },
        claim: (key: string, leaseMs: number) => asker.claim(key, leaseMs),
        release: (key: string) => asker.release(key),
      };
      const found = await cachedOrClaimed(interleaved, 'k1', () => true, () => Promise.reject(new Error('no wait expected')));
      expect(found).toEqual({ entry: record('k1') });
      // Nobody is left judging it.
      expect(asker.stats().judging_now).toBe(0);
    } finally {
      holder.close();
      asker.close();
    }
  });
});
