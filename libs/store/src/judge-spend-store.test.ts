import { describe, expect, it } from 'vitest';
import { openJudgeSpend, type JudgeModelSpend } from './judge-spend-store.js';
import { openSql } from './open-sql.js';
import { storeDrivers, useStoreDriver } from './test-support/each-driver.js';

const spend = (model: string, calls: number, usd: number): JudgeModelSpend => ({
  provider: 'anthropic',
  model,
  calls,
  input_tokens: calls * 1_000,
  output_tokens: calls * 100,
  cost_usd: usd,
  unpriced_calls: 0,
  cached_input_tokens: 0,
  cache_saving_usd: 0,
  cache_write_input_tokens: calls * 30,
  batch_saving_usd: usd / 2,
});

/** A calibration session with ratings: two paid calls (one unpriced), one from the cache, one that made no call. */
function calibrationSession(path: string, id: string, mode: string, startedAt: string): void {
  const sql = openSql(path);
  try {
    sql.run(
      `INSERT INTO calibration_sessions (id, set_path, started_at, mode, rubric_version, rubric_sha256, raters_json, items, parley_version)
       VALUES (?, 'calibration/booking', ?, ?, '1', 'sha', '[]', 4, '0.1.0')`,
      [id, startedAt, mode],
    );
    const ratings: Array<[string, number, number, number, number | null]> = [
      ['i1', 0, 2_000, 200, 0.01],
      ['i2', 0, 3_000, 300, null],
      ['i3', 1, 5_000, 500, 0.5],
      ['i4', 0, 0, 0, null],
    ];
    for (const [item, cached, input, output, cost] of ratings) {
      sql.run(
        `INSERT INTO calibration_ratings (session_id, item_id, rater, provider, model, item_digest, cache_key, cached, input_tokens, output_tokens, cost_usd, latency_ms)
         VALUES (?, ?, 'judge', 'anthropic', 'claude-opus-4-7', 'd', 'k', ?, ?, ?, ?, 5)`,
        [id, item, cached, input, output, cost],
      );
    }
  } finally {
    sql.close();
  }
}

describe.each(storeDrivers)('openJudgeSpend on %s', (driver) => {
  const database = useStoreDriver(driver);

  it("keeps monitor's spend per model and sums calibration sessions' paid ratings, since a time", () => {
    calibrationSession(database.path, 's-live', 'live', '2026-11-02T09:00:00.000Z');
    calibrationSession(database.path, 's-replay', 'replay', '2026-11-03T09:00:00.000Z');
    const store = openJudgeSpend(database.path);
    try {
      store.add('monitor', 'booking', '2026-11-01T08:00:00.000Z', [spend('claude-opus-4-7', 3, 0.3), spend('claude-haiku-4-5', 0, 0)]);
      store.add('monitor', 'booking', '2026-11-04T08:00:00.000Z', [spend('claude-haiku-4-5', 2, 0.02), spend('claude-opus-4-7', 1, 0.1)]);
      store.add('monitor', 'booking', '2026-11-05T08:00:00.000Z', []);
      expect(store.since('2026-11-01T00:00:00.000Z')).toEqual([
        { source: 'monitor', suite: 'booking', spent_at: '2026-11-01T08:00:00.000Z', ...spend('claude-opus-4-7', 3, 0.3) },
        { source: 'monitor', suite: 'booking', spent_at: '2026-11-04T08:00:00.000Z', ...spend('claude-haiku-4-5', 2, 0.02) },
        { source: 'monitor', suite: 'booking', spent_at: '2026-11-04T08:00:00.000Z', ...spend('claude-opus-4-7', 1, 0.1) },
        {
          source: 'calibration',
          suite: 'calibration/booking',
          spent_at: '2026-11-02T09:00:00.000Z',
          provider: 'anthropic',
          model: 'claude-opus-4-7',
          calls: 2,
          input_tokens: 5_000,
          output_tokens: 500,
          cost_usd: 0.01,
          unpriced_calls: 2,
          cached_input_tokens: 0,
          cache_saving_usd: 0,
          cache_write_input_tokens: 0,
          batch_saving_usd: 0,
        },
      ]);
      expect(store.since('2026-11-03T00:00:00.000Z').map((entry) => [entry.source, entry.model])).toEqual([
        ['monitor', 'claude-haiku-4-5'],
        ['monitor', 'claude-opus-4-7'],
      ]);
    } finally {
      store.close();
    }
  });
});
