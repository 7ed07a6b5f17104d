import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
// The store's test drivers are test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { storeDrivers, useStoreDriver } from '../../../libs/store/src/test-support/each-driver.js';
import { parleyAsync } from './test-support/parley-process.js';

const SUITE: Record<string, string> = {
  'parley.yaml': `suite: claimed_verdicts
agents:
  booking: { kind: openai, model: gpt-4.1-mini, system_prompt: prompt.md }
judge:
  primary: { provider: anthropic, model: claude-opus-4-7 }
settings: { retries: { max: 0 } }
`,
  'prompt.md': 'You book massages.\n',
  'scenarios/hello.yaml': `id: hello
agent: booking
user: { opening: "Are you open on Saturday?" }
expect:
  - { metric: conversation_judge }
`,
};

function writeSuite(): string {
  const folder = mkdtempSync(join(tmpdir(), 'parley-judge-claims-'));
  for (const [path, content] of Object.entries(SUITE)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
  return folder;
}

/** The judge's answers wait for the test to open this gate (fake-llm's latency, steered, not timed). */
let openGate: () => void = () => undefined;
let gate: Promise<void> = Promise.resolve();
let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        { when: { model: 'gpt-4.1-mini' }, reply: { content: 'Yes, we are open on Saturday from 9 to 18.' } },
        {
          when: { model: 'claude-opus-4-7' },
          latency_ms: 1,
          reply: { content: { message_scores: [{ message_index: 1, score: 90, reason: 'Clear.' }], overall_feedback: 'Good.' }, usage: { input_tokens: 500, output_tokens: 50 } },
        },
      ],
    },
    wait: () => gate,
  });
});
afterAll(async () => {
  openGate();
  await server?.close();
});

const calls = (model: string) => server.requests.filter((request) => request.api !== 'control' && request.model === model);

interface JudgedReport {
  judge: { verdicts: number; cache: { hits: number; misses: number } };
}

describe.each(storeDrivers)('two parley processes judging the same conversation on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('make one judge call: the second waits for the first one’s verdict and reports it as a cache hit', { timeout: 120_000 }, async () => {
    const suite = writeSuite();
    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    gate = new Promise((resolve) => (openGate = resolve));
    const env = {
      OPENAI_API_KEY: 'sk-test-CLAIMS-0123',
      ANTHROPIC_API_KEY: 'sk-ant-test-CLAIMS-0123',
      OPENAI_BASE_URL: server.openaiBaseUrl,
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
      ...(database.url !== undefined ? { PARLEY_DATABASE_URL: database.url } : {}),
    };
    const first = parleyAsync(['run', '.', '--mode', 'live', '--out', 'first'], { cwd: suite, env });
    // The first process has claimed the verdict and its judge call is held at fake-llm.
    await vi.waitFor(() => expect(calls('claude-opus-4-7')).toHaveLength(1), { timeout: 60_000, interval: 20 });
    const second = parleyAsync(['run', '.', '--mode', 'live', '--out', 'second'], { cwd: suite, env });
    // The second has had its conversation answered: next it looks for the verdict, finds it claimed, and waits
    // (or, on a slow machine, comes to it once the verdict is stored: a cache hit just the same; the
    // judge-run unit test interleaves the two deterministically).
    await vi.waitFor(() => expect(calls('gpt-4.1-mini').filter((request) => request.status !== null)).toHaveLength(2), { timeout: 60_000, interval: 20 });
    openGate();
    const [one, two] = await Promise.all([first, second]);
    expect([one.status, two.status], `${one.stderr}\n${two.stderr}`).toEqual([0, 0]);
    expect(calls('claude-opus-4-7')).toHaveLength(1);
    const report = (folder: string) => JSON.parse(readFileSync(join(suite, folder, 'report.json'), 'utf8')) as JudgedReport;
    expect(report('first').judge).toMatchObject({ verdicts: 1, cache: { hits: 0, misses: 1 } });
    expect(report('second').judge).toMatchObject({ verdicts: 1, cache: { hits: 1, misses: 0 } });
    expect(two.stdout).toMatch(/1 verdict, 1 from the cache \(cost 0, saved \$0\.\d{4}\)/);
  });
});

/**
 * The waiting made visible: the test holds the claim of a verdict itself (another process judging
 * it) and keeps an entry under its key that is not a verdict yet, so that every look of the waiting
 * process into the cache counts a hit on that entry. It then lets the waiter go either way: the
 * verdict stored and the claim released (a cache hit), or the holder's lease run out (taken over).
 */
describe.each(storeDrivers)('a parley process asking for a verdict another process holds on %s', (driver) => {
  const database = useStoreDriver(driver);

  async function heldVerdict(): Promise<{ suite: string; env: Record<string, string>; key: string; verdictJson: string; storePath: string }> {
    const suite = writeSuite();
    gate = Promise.resolve();
    const env = {
      OPENAI_API_KEY: 'sk-test-CLAIMS-0123',
      ANTHROPIC_API_KEY: 'sk-ant-test-CLAIMS-0123',
      OPENAI_BASE_URL: server.openaiBaseUrl,
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
      ...(database.url !== undefined ? { PARLEY_DATABASE_URL: database.url } : {}),
    };
    // A first run judges the verdict, so that its key and value are known.
    const judged = await parleyAsync(['run', '.', '--mode', 'live', '--out', 'judged'], { cwd: suite, env });
    expect(judged.status, judged.stderr).toBe(0);
    const storePath = join(suite, '.parley', 'parley.db');
    const { claimVerdict, openSql } = await import('@parley/store');
    const sql = openSql(storePath);
    try {
      const { key, value_json: verdictJson } = sql.get<{ key: string; value_json: string }>('SELECT key, value_json FROM judge_cache')!;
      sql.run(`UPDATE judge_cache SET value_json = '{"being_judged":true}', hits = 0 WHERE key = ?`, [key]);
      expect(claimVerdict(sql, key, 'another-process', Date.now(), 3_600_000)).toEqual({ kind: 'claimed' });
      await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
      return { suite, env, key, verdictJson, storePath };
    } finally {
      sql.close();
    }
  }

  async function waitUntilPolled(storePath: string, key: string): Promise<void> {
    const { openSql } = await import('@parley/store');
    const sql = openSql(storePath);
    try {
      // A second look into the cache comes only after the claim was found held: the process is waiting.
      await vi.waitFor(() => expect(sql.get<{ hits: number }>('SELECT hits FROM judge_cache WHERE key = ?', [key])!.hits).toBeGreaterThanOrEqual(2), {
        timeout: 60_000,
        interval: 20,
      });
      expect(calls('claude-opus-4-7')).toHaveLength(0);
    } finally {
      sql.close();
    }
  }

  it('waits without calling the judge, and reads the verdict once the holder stores it', { timeout: 120_000 }, async () => {
    const { suite, env, key, verdictJson, storePath } = await heldVerdict();
    const waiting = parleyAsync(['run', '.', '--mode', 'live', '--out', 'waiter'], { cwd: suite, env });
    await waitUntilPolled(storePath, key);
    const { openSql, releaseClaim } = await import('@parley/store');
    const sql = openSql(storePath);
    try {
      sql.run('UPDATE judge_cache SET value_json = ? WHERE key = ?', [verdictJson, key]);
      expect(releaseClaim(sql, key, 'another-process')).toBe(true);
    } finally {
      sql.close();
    }
    const waiter = await waiting;
    expect(waiter.status, waiter.stderr).toBe(0);
    expect(calls('claude-opus-4-7')).toHaveLength(0);
    const report = JSON.parse(readFileSync(join(suite, 'waiter', 'report.json'), 'utf8')) as JudgedReport;
    expect(report.judge).toMatchObject({ verdicts: 1, cache: { hits: 1, misses: 0 } });
  });

  it('takes the judging over once the holder’s lease has run out (a holder that died)', { timeout: 120_000 }, async () => {
    const { suite, env, key, storePath } = await heldVerdict();
    const waiting = parleyAsync(['run', '.', '--mode', 'live', '--out', 'waiter'], { cwd: suite, env });
    await waitUntilPolled(storePath, key);
    const { openSql } = await import('@parley/store');
    const sql = openSql(storePath);
    try {
      sql.run('UPDATE judge_claims SET lease_until_ms = 0 WHERE key = ?', [key]);
    } finally {
      sql.close();
    }
    const waiter = await waiting;
    expect(waiter.status, waiter.stderr).toBe(0);
    expect(calls('claude-opus-4-7')).toHaveLength(1);
    const report = JSON.parse(readFileSync(join(suite, 'waiter', 'report.json'), 'utf8')) as JudgedReport;
    expect(report.judge).toMatchObject({ verdicts: 1, cache: { hits: 0, misses: 1 } });
  });
});
