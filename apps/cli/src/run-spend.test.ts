import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { copyExample } from './test-support/example-copy.js';
import { GATE_FAKE_SCRIPT, GATE_SUITE_FILES, parleyIn, writeSuite } from './test-support/gate-suite.js';

interface ReportJson {
  run_id: string;
  cost_usd: number | null;
  budget?: { limit_usd: number; exhausted: boolean; unchecked_blocking: number; downgrades: string[] };
  results: Array<{ scenario_id: string; status: string; reason: string }>;
}

interface CostJson {
  total_usd: number;
  runs: number;
  by_model: Array<{ model: string; usd: number }>;
}

function report(folder: string): ReportJson {
  return JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as ReportJson;
}

describe('a replay under a budget', () => {
  it('spends nothing, so the recorded dollars do not count against --budget (the report keeps them as what the calls cost)', async () => {
    const suite = copyExample('booking');
    const run = await parleyIn(suite, ['run', '.', '--budget', '0.1', '--out', 'replayed']);
    expect(run.code).toBe(0);
    const replayed = report(join(suite, 'replayed'));
    // What the recorded calls cost, more than the budget: it stays in the report.
    expect(replayed.cost_usd).toBeGreaterThan(0.1);
    expect(replayed.budget).toMatchObject({ limit_usd: 0.1, exhausted: false, unchecked_blocking: 0 });
    expect(replayed.results.filter((result) => /budget/.test(result.reason))).toEqual([]);
    expect(run.stdout).not.toContain('budget reached');
  });
});

describe('parley cost and merged runs', () => {
  let server: FakeLlmServer;
  let suite: string;
  const env = () => ({ OPENAI_API_KEY: 'sk-test-MERGE-0123456789', OPENAI_BASE_URL: server.openaiBaseUrl });
  beforeAll(async () => {
    server = await startFakeLlm({ script: GATE_FAKE_SCRIPT });
    suite = writeSuite(GATE_SUITE_FILES);
    for (const index of [1, 2]) {
      const shard = await parleyIn(suite, ['run', '.', '--mode', 'live', '--shard', `${index}/2`, '--out', `shard-${index}`], env());
      expect([0, 1]).toContain(shard.code);
    }
    expect([0, 1]).toContain((await parleyIn(suite, ['merge-reports', 'shard-1', 'shard-2', '--out', 'merged'])).code);
  });
  afterAll(async () => {
    await server?.close();
  });

  const shardSpend = () => [1, 2].reduce((sum, index) => sum + report(join(suite, `shard-${index}`)).cost_usd!, 0);

  it('counts a merged run once when its shards are in the same store', async () => {
    expect(shardSpend()).toBeGreaterThan(0);
    const cost = await parleyIn(suite, ['cost', '--format', 'json']);
    expect(cost.code).toBe(0);
    const summary = JSON.parse(cost.stdout) as CostJson;
    expect(summary.runs).toBe(3);
    expect(summary.total_usd).toBeCloseTo(shardSpend(), 10);
    // Given again as folders, the shards and the merged report still count once.
    const again = JSON.parse((await parleyIn(suite, ['cost', '--format', 'json', 'shard-1', 'shard-2', 'merged'])).stdout) as CostJson;
    expect(again.total_usd).toBeCloseTo(shardSpend(), 10);
  });

  it('counts a merged run whose shards ran elsewhere (other CI machines): its total is theirs', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'parley-cost-elsewhere-'));
    const merged = JSON.parse((await parleyIn(elsewhere, ['cost', '--format', 'json', join(suite, 'merged')])).stdout) as CostJson;
    expect(merged.total_usd).toBeCloseTo(shardSpend(), 10);
    // One shard here, the other elsewhere: the merged run adds only the missing shard.
    const oneShard = JSON.parse((await parleyIn(elsewhere, ['cost', '--format', 'json', join(suite, 'shard-1'), join(suite, 'merged')])).stdout) as CostJson;
    expect(oneShard.total_usd).toBeCloseTo(shardSpend(), 10);
  });
});
