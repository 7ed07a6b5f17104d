import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copySuite, parleyIn, recordedGateSuite } from '../test-support/gate-suite.js';

let suite: string;

/** The gate suite recorded against fake-llm (a record run in its store), then replayed once. */
beforeAll(async () => {
  suite = copySuite(await recordedGateSuite());
  expect((await parleyIn(suite, ['run', '.', '--out', 'replayed'])).code).toBe(0);
  // A shard's report from CI, a run this store never saw: its total counts, not itemised.
  const report = JSON.parse(readFileSync(join(suite, 'replayed', 'report.json'), 'utf8')) as Record<string, unknown>;
  mkdirSync(join(suite, 'ci-shard-1'));
  writeFileSync(join(suite, 'ci-shard-1', 'report.json'), JSON.stringify({ ...report, run_id: '20260101-000000-c1c1c1', mode: 'live', cost_usd: 0.42 }));
});

describe('parley cost', () => {
  it('reports the store’s spend by suite, model and month; replays pay nothing; report folders add their runs', async () => {
    const result = await parleyIn(suite, ['cost', '--since', '30d', '--format', 'json', 'replayed', 'ci-shard-1']);
    expect(result.code).toBe(0);
    const cost = JSON.parse(result.stdout) as {
      runs: number;
      total_usd: number;
      by_suite: Array<{ suite: string; runs: number; usd: number }>;
      by_model: Array<{ provider: string; model: string; calls: number; usd: number; unpriced_calls: number }>;
      by_month: Array<{ month: string; runs: number }>;
    };
    // The record run and the replay from the store, and the CI shard; `replayed` is the store's replay again.
    expect(cost.runs).toBe(3);
    expect(cost.by_suite).toEqual([{ suite: 'gate_demo', runs: 3, usd: expect.any(Number) }]);
    const itemised = cost.by_model.filter((row) => row.model !== '(not itemised)');
    expect(itemised.length).toBeGreaterThan(0);
    expect(itemised.every((row) => row.calls > 0)).toBe(true);
    expect(cost.by_model.find((row) => row.model === '(not itemised)')).toMatchObject({ usd: 0.42, calls: 0 });
    expect(cost.total_usd).toBeCloseTo(cost.by_model.reduce((sum, row) => sum + row.usd, 0), 10);
    expect(cost.by_month).toEqual([{ month: '2026-01', runs: 3, usd: expect.any(Number) }]);
  });

  it('prints the four tables within 80 columns', async () => {
    const result = await parleyIn(suite, ['cost']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^spend since 2025-12-02: \$\d+\.\d{4} over 2 runs\nby source\n[\s\S]*by suite \(runs\)\n/);
    expect(result.stdout).toMatch(/by model\n[\s\S]*by month\n[\s\S]*2026-01/);
    for (const line of result.stdout.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('says so when the window has no runs, and exits 2 for a bad --since or report', async () => {
    // The store's runs are all at the (manual) clock's now, so a folder without a store is a window without runs.
    expect((await parleyIn(mkdtempSync(join(tmpdir(), 'parley-cost-empty-')), ['cost'])).stdout).toContain('no runs in this window');
    const future = await parleyIn(suite, ['cost', '--since', '2027-01-01']);
    expect(future.code).toBe(2);
    expect(future.stderr).toContain('--since 2027-01-01 is in the future');
    expect((await parleyIn(suite, ['cost', '--since', 'soon'])).code).toBe(2);
    const missing = await parleyIn(suite, ['cost', 'no-such-folder']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no-such-folder/);
  });

  it('counts a report folder of unknown cost at what its priced calls cost, and says how many calls were not counted', async () => {
    // A live run from CI with one call to a model without a price: its report says cost_usd null.
    const report = JSON.parse(readFileSync(join(suite, 'replayed', 'report.json'), 'utf8')) as {
      results: Array<{ calls?: Array<{ cost_usd: number | null }> }>;
    } & Record<string, unknown>;
    const calls = report.results.flatMap((result) => result.calls ?? []);
    expect(calls.length).toBeGreaterThan(1);
    calls[0]!.cost_usd = null;
    const priced = calls.reduce((sum, call) => sum + (call.cost_usd ?? 0), 0);
    expect(priced).toBeGreaterThan(0);
    mkdirSync(join(suite, 'ci-unpriced'));
    writeFileSync(join(suite, 'ci-unpriced', 'report.json'), JSON.stringify({ ...report, run_id: '20260101-000000-d2d2d2', mode: 'live', cost_usd: null }));
    const json = await parleyIn(suite, ['cost', '--since', '30d', '--format', 'json', 'ci-unpriced']);
    expect(json.code, json.stderr).toBe(0);
    const cost = JSON.parse(json.stdout) as { by_model: Array<{ model: string; usd: number; unpriced_calls: number }>; by_source: Array<{ source: string; unpriced_calls: number }> };
    const unitemised = cost.by_model.find((row) => row.model === '(not itemised)')!;
    expect(unitemised.usd).toBeCloseTo(priced, 10);
    expect(unitemised.unpriced_calls).toBe(1);
    expect(cost.by_source.find((row) => row.source === 'runs')!.unpriced_calls).toBe(1);
    const text = await parleyIn(suite, ['cost', '--since', '30d', 'ci-unpriced']);
    expect(text.stdout.split('\n')[0]).toMatch(/^spend since \d{4}-\d{2}-\d{2}: \$\d+\.\d{4} over 3 runs \(\+1 call to models without a price, not counted: add them under pricing:\)$/);
  });
});
