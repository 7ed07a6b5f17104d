import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openModelSpend, type ModelSpend } from './model-spend-store.js';
import { openStore } from './store.js';

const counts = { pass: 1, fail: 0, error: 0, warn: 0, flaky: 0, skipped: 0 };

/** A store with runs `a` (live, March), `b` (replay, April, no spend rows) and `c` (live, April). */
function storeWithRuns(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'parley-spend-')), 'parley.db');
  const store = openStore(path);
  try {
    for (const [id, mode, startedAt, usd] of [
      ['a', 'live', '2026-03-05T10:00:00.000Z', 0.5],
      ['b', 'replay', '2026-04-01T10:00:00.000Z', 0.2],
      ['c', 'live', '2026-04-02T10:00:00.000Z', 0.03],
    ] as const) {
      store.createRun({ id, suite: id === 'c' ? 'municipal' : 'booking', mode, started_at: startedAt, parley_version: '0.1.0', options: {}, out_dir: `/out/${id}` });
      store.finishRun(id, { status: 'pass', exit_code: 0, finished_at: startedAt, duration_ms: 1, cost: { input_tokens: 0, output_tokens: 0, usd, calls: 1 }, counts });
    }
  } finally {
    store.close();
  }
  return path;
}

const row = (model: string, role: string, calls: number, usd: number): ModelSpend => ({ provider: 'openai', model, role, calls, input_tokens: calls * 100, output_tokens: calls * 10, cost_usd: usd, unpriced_calls: 0, cached_input_tokens: calls * 50, cache_saving_usd: usd / 10 });

describe('openModelSpend', () => {
  it('keeps each run’s spend per model and role, adding up what a resumed run adds', () => {
    const path = storeWithRuns();
    const spend = openModelSpend(path);
    try {
      spend.add('a', [row('gpt-4.1-mini', 'agent', 3, 0.3), row('gpt-4.1', 'judge', 1, 0.2)]);
      spend.add('a', [row('gpt-4.1-mini', 'agent', 1, 0.1)]);
      const [a] = spend.runsSince('2026-03-01');
      expect(a).toMatchObject({ run_id: 'a', suite: 'booking', mode: 'live', cost_usd: 0.5 });
      expect(a!.models).toEqual([row('gpt-4.1', 'judge', 1, 0.2), { ...row('gpt-4.1-mini', 'agent', 4, 0.4), cost_usd: expect.closeTo(0.4, 12), cache_saving_usd: expect.closeTo(0.04, 12) }]);
    } finally {
      spend.close();
    }
  });

  it('lists the runs started since a time, oldest first, with no rows for runs that recorded none', () => {
    const spend = openModelSpend(storeWithRuns());
    try {
      expect(spend.runsSince('2026-04-01T00:00:00Z').map((run) => [run.run_id, run.models.length])).toEqual([
        ['b', 0],
        ['c', 0],
      ]);
    } finally {
      spend.close();
    }
  });
});
