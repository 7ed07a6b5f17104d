import { describe, expect, it } from 'vitest';
import { openModelSpend, type ModelSpend } from './model-spend-store.js';
import { openSql } from './open-sql.js';
import { storeDrivers, useStoreDriver } from './test-support/each-driver.js';

/** Runs `a` (live, March), `b` (replay, April, no spend rows) and `c` (live, April) in the store at `path`. */
function storeWithRuns(path: string): string {
  const sql = openSql(path);
  try {
    for (const [id, mode, startedAt, usd, options] of [
      ['a', 'live', '2026-03-05T10:00:00.000Z', 0.5, {}],
      ['b', 'replay', '2026-04-01T10:00:00.000Z', 0.2, {}],
      ['c', 'live', '2026-04-02T10:00:00.000Z', 0.03, {}],
      ['m', 'live', '2026-04-03T10:00:00.000Z', 0.53, { merged_from: ['a', 'c'] }],
    ] as const) {
      sql.run(
        `INSERT INTO runs (id, suite, mode, started_at, parley_version, options_json, out_dir, status, exit_code, finished_at, cost_usd)
         VALUES (?, ?, ?, ?, '0.1.0', ?, ?, 'pass', 0, ?, ?)`,
        [id, id === 'c' ? 'municipal' : 'booking', mode, startedAt, JSON.stringify(options), `/out/${id}`, startedAt, usd],
      );
    }
  } finally {
    sql.close();
  }
  return path;
}

const row = (model: string, role: string, calls: number, usd: number): ModelSpend => ({ provider: 'openai', model, role, calls, input_tokens: calls * 100, output_tokens: calls * 10, cost_usd: usd, unpriced_calls: 0, cached_input_tokens: calls * 50, cache_saving_usd: usd / 10, cache_write_input_tokens: calls * 20 });

describe.each(storeDrivers)('openModelSpend on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('keeps each run’s spend per model and role, adding up what a resumed run adds', () => {
    const path = storeWithRuns(database.path);
    const spend = openModelSpend(path);
    try {
      spend.add('a', [row('gpt-4.1-mini', 'agent', 3, 0.3), row('gpt-4.1', 'judge', 1, 0.2)]);
      // Rows of one model and role twice in one call add up too.
      spend.add('a', [row('gpt-4.1-mini', 'agent', 1, 0.05), row('gpt-4.1-mini', 'agent', 0, 0.05)]);
      const [a] = spend.runsSince('2026-03-01');
      expect(a).toMatchObject({ run_id: 'a', suite: 'booking', mode: 'live', cost_usd: 0.5 });
      expect(a!.models).toEqual([row('gpt-4.1', 'judge', 1, 0.2), { ...row('gpt-4.1-mini', 'agent', 4, 0.4), cost_usd: expect.closeTo(0.4, 12), cache_saving_usd: expect.closeTo(0.04, 12) }]);
    } finally {
      spend.close();
    }
  });

  it('lists the runs started since a time, oldest first, with no rows for runs that recorded none', () => {
    const spend = openModelSpend(storeWithRuns(database.path));
    try {
      expect(spend.runsSince('2026-04-01T00:00:00Z').map((run) => [run.run_id, run.models.length])).toEqual([
        ['b', 0],
        ['c', 0],
        ['m', 0],
      ]);
      expect(spend.runsSince('2026-04-03T00:00:00Z')).toEqual([
        { run_id: 'm', suite: 'booking', mode: 'live', started_at: '2026-04-03T10:00:00.000Z', cost_usd: 0.53, models: [], merged_from: ['a', 'c'] },
      ]);
    } finally {
      spend.close();
    }
  });
});
