import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
// The store's test drivers are test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { storeDrivers, useStoreDriver } from '../../../libs/store/src/test-support/each-driver.js';
import { parleyAsync } from './test-support/parley-process.js';

const SHARDS = 8;
const SCENARIOS = 24;
/** Every call answers its whole max_tokens (1,000 output tokens at $400 a million): $0.40, also its worst case. */
const CALL_USD = 0.4;

function writeSuite(): string {
  const folder = mkdtempSync(join(tmpdir(), 'parley-shared-budget-'));
  const files: Record<string, string> = {
    'parley.yaml': `suite: shared_budget\nagents:\n  ok: { kind: openai, model: pricey, max_tokens: 1000 }\nsettings: { concurrency: 1, retries: { max: 0 } }\npricing: { pricey: { input: 0, output: 400 } }\n`,
  };
  for (let index = 1; index <= SCENARIOS; index += 1) {
    const id = `s${String(index).padStart(2, '0')}`;
    files[`scenarios/${id}.yaml`] = `id: ${id}\nagent: ok\nuser: { opening: "Hi" }\n`;
  }
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
  return folder;
}

interface ShardReport {
  cost_usd: number | null;
  budget?: { limit_usd: number; spent_usd?: number; shared?: { key: string; spent_usd: number }; split?: unknown; downgrades: string[] };
  results: Array<{ scenario_id: string; status: string; reason: string }>;
}

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlm({ script: { rules: [{ when: { api: 'openai', model: 'pricey' }, reply: { content: 'Done.', usage: { input_tokens: 10, output_tokens: 1000 } } }] } });
});
afterAll(async () => {
  await server?.close();
});

describe.each(storeDrivers)('8 shards of one PR holding to one --budget on %s', (driver) => {
  const database = useStoreDriver(driver);

  /**
   * Starts the 8 shards at once (real processes). On PostgreSQL the budget key is derived from the
   * CI run (GITHUB_RUN_ID) as on GitHub Actions; a SQLite file shares a budget only with --budget-key.
   */
  async function shards(budget: string, runId: string): Promise<{ suite: string; reports: ShardReport[]; key: string }> {
    const suite = writeSuite();
    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    const env = {
      OPENAI_API_KEY: 'sk-test-SHARED-BUDGET-0123',
      OPENAI_BASE_URL: server.openaiBaseUrl,
      GITHUB_RUN_ID: runId,
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_REPOSITORY: 'acme/agents',
      ...(database.url !== undefined ? { PARLEY_DATABASE_URL: database.url } : {}),
    };
    const key = database.url !== undefined ? `github:acme/agents:${runId}:1:shared_budget:${SHARDS}` : `pr-${runId}`;
    const keyFlag = database.url !== undefined ? [] : ['--budget-key', key];
    const runs = await Promise.all(
      Array.from({ length: SHARDS }, (_, index) =>
        parleyAsync(['run', '.', '--mode', 'live', '--shard', `${index + 1}/${SHARDS}`, '--budget', budget, ...keyFlag, '--out', `shard-${index + 1}`], { cwd: suite, env }),
      ),
    );
    for (const run of runs) expect([0, 1], run.stderr).toContain(run.status);
    const reports = runs.map((_, index) => JSON.parse(readFileSync(join(suite, `shard-${index + 1}`, 'report.json'), 'utf8')) as ShardReport);
    return { suite, reports, key };
  }

  const agentCalls = (): number => server.requests.filter((request) => request.api !== 'control').length;

  it('never spend more than the budget together: the calls it pays for run, the rest are refused for the budget as a lone run refuses them', { timeout: 240_000 }, async () => {
    const { suite, reports, key } = await shards('2', `run-small-${driver}`);
    // $2 pays exactly five $0.40 calls across all shards (budget / 8 = $0.25 would pay none).
    expect(agentCalls()).toBe(5);
    const spent = reports.reduce((sum, report) => sum + (report.cost_usd ?? 0), 0);
    expect(spent).toBeCloseTo(5 * CALL_USD, 10);
    // Loaded when used, as the CLI loads the store.
    const { budgetState, openSql } = await import('@parley/store');
    const sql = openSql(join(suite, '.parley', 'parley.db'));
    try {
      expect(budgetState(sql, key)).toEqual({ spentUsd: 5 * CALL_USD, reservedUsd: 0 });
    } finally {
      sql.close();
    }
    const results = reports.flatMap((report) => report.results);
    expect(results).toHaveLength(SCENARIOS);
    expect(results.filter((result) => result.status === 'pass')).toHaveLength(5);
    const refused = results.filter((result) => result.status !== 'pass');
    expect(refused).toHaveLength(SCENARIOS - 5);
    for (const result of refused) {
      expect(result.status).toBe('warn');
      expect(result.reason).toMatch(/^not checked: budget reached/);
    }
    for (const report of reports) {
      expect(report.budget).toMatchObject({ limit_usd: 2, shared: { key } });
      expect(report.budget!.split).toBeUndefined();
      expect(report.budget!.spent_usd).toBeCloseTo(report.cost_usd ?? 0, 10);
    }
  });

  it('with a budget large enough run every scenario of every shard', { timeout: 240_000 }, async () => {
    const { reports } = await shards('100', `run-large-${driver}`);
    expect(agentCalls()).toBe(SCENARIOS);
    const results = reports.flatMap((report) => report.results);
    expect(results.map((result) => result.status)).toEqual(Array.from({ length: SCENARIOS }, () => 'pass'));
    expect(reports.reduce((sum, report) => sum + (report.cost_usd ?? 0), 0)).toBeCloseTo(SCENARIOS * CALL_USD, 10);
  });
});
