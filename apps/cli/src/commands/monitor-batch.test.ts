import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { afterEach, describe, expect, it } from 'vitest';
import { MONITORED_SUITE, writeMonitorLog } from '../test-support/monitored-suite.js';
import { parleyAsync } from '../test-support/parley-process.js';
import { writeSuite } from '../test-support/zuri-suite.js';

let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

/** 200 conversations that ended an hour ago; returns the ids the 5 % sample holds. */
const writeLogs = (dir: string): string[] => writeMonitorLog(dir, 'batch-conv', 200);

describe('parley monitor --batch (the providers\' batch APIs on fake-llm, through the real clients)', () => {
  it('submits once, says the batch is in progress (exit 0) without resubmitting, then collects it at half price', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    const sampled = writeLogs(suite);
    expect(sampled.length).toBeGreaterThan(3);
    llm = await startFakeLlm({ script: { rules: [], fallback: { content: JSON.stringify({ score: 4, reason: 'Clear answer.' }), usage: { input_tokens: 1000, output_tokens: 50 } } } });
    const env = { OPENAI_BASE_URL: llm.openaiBaseUrl, OPENAI_API_KEY: 'sk-fake-batch' };
    const args = ['monitor', '--logs', 'conversations.jsonl', '--batch', '--format', 'json'];
    const n = sampled.length;

    const first = await parleyAsync(args, { cwd: suite, env });
    expect(first.status, first.stderr).toBe(0);
    const submitted = JSON.parse(first.stdout);
    expect(submitted.judged).toEqual([]);
    expect(submitted.batch.batches).toEqual([{ batch_id: expect.stringMatching(/^batch_fake_/), provider: 'openai', model: 'gpt-4.1', requests: n, state: 'submitted' }]);
    expect(submitted.batch.waiting).toHaveLength(n);
    expect(llm.batches()).toHaveLength(1);
    expect(llm.batches()[0]!.custom_ids).toHaveLength(n);
    // Judge calls went into the batch, none to the synchronous endpoint; the judge saw masked text.
    expect(llm.requests.some((request) => request.path.includes('/chat/completions'))).toBe(false);
    expect(JSON.stringify(llm.requests)).not.toContain('Grace Achieng');

    const text = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--batch'], { cwd: suite, env });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain(`batch: ${llm.batches()[0]!.id} (openai:gpt-4.1, ${n} requests) still in progress (in_progress, 0 of ${n} done)`);
    expect(text.stdout).toContain(`${n} conversations wait for batch answers: run \`parley monitor --batch\` again to collect them`);
    expect(text.stdout).toContain('judged 0 conversations');
    expect(llm.batches()).toHaveLength(1);

    expect(llm.completeBatches()).toBe(1);
    const collected = JSON.parse((await parleyAsync(args, { cwd: suite, env })).stdout);
    expect(collected.batch.batches).toEqual([expect.objectContaining({ state: 'collected', requests: n })]);
    expect(collected.batch.waiting).toEqual([]);
    expect(collected.judged).toHaveLength(n);
    expect(collected.judged.every((item: { status: string; scores: Array<{ score: number }> }) => item.status === 'judged' && item.scores[0]!.score === 0.75)).toBe(true);
    // gpt-4.1 at $2 / $8 per million, halved for batches.
    expect(collected.spent_usd).toBeCloseTo((n * (1000 * 2 + 50 * 8)) / 2 / 1e6, 12);
    expect(collected.windows[0]).toMatchObject({ metric: 'service_quality', current: { n } });

    const after = JSON.parse((await parleyAsync(args, { cwd: suite, env })).stdout);
    expect(after).toMatchObject({ already_judged: n, judged: [], batch: { batches: [], waiting: [] } });
    expect(llm.batches()).toHaveLength(1);
  });

  it('sends the requests of an expired batch again, in a new batch, and collects that one', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    const n = writeLogs(suite).length;
    llm = await startFakeLlm({ script: { rules: [], fallback: { content: JSON.stringify({ score: 4, reason: 'Clear answer.' }), usage: { input_tokens: 1000, output_tokens: 50 } } } });
    const env = { OPENAI_BASE_URL: llm.openaiBaseUrl, OPENAI_API_KEY: 'sk-fake-batch' };
    const args = ['monitor', '--logs', 'conversations.jsonl', '--batch', '--format', 'json'];
    expect((await parleyAsync(args, { cwd: suite, env })).status).toBe(0);
    const [first] = llm.batches();
    expect(llm.expireBatches()).toBe(1);

    const again = JSON.parse((await parleyAsync(args, { cwd: suite, env })).stdout);
    expect(again.batch.batches).toEqual([
      { batch_id: first!.id, provider: 'openai', model: 'gpt-4.1', requests: n, state: 'failed', detail: `OpenAI batch ${first!.id} is expired` },
      expect.objectContaining({ state: 'submitted', requests: n }),
    ]);
    expect(again.batch.waiting).toHaveLength(n);
    expect(llm.batches().map((batch) => batch.status)).toEqual(['expired', 'in_progress']);
    expect(llm.batches()[1]!.custom_ids).toEqual(first!.custom_ids);

    llm.completeBatches();
    const collected = JSON.parse((await parleyAsync(args, { cwd: suite, env })).stdout);
    expect(collected.judged).toHaveLength(n);
    expect(llm.batches()).toHaveLength(2);
  });

  it('with an Anthropic judge: a Message Batch through the real @anthropic-ai/sdk, collected on the next run', async () => {
    const suite = writeSuite({ ...MONITORED_SUITE, 'parley.yaml': MONITORED_SUITE['parley.yaml']!.replace('primary: { provider: openai, model: gpt-4.1, temperature: 0 }', 'primary: { provider: anthropic, model: claude-sonnet-4-6 }') });
    const n = writeLogs(suite).length;
    llm = await startFakeLlm({ script: { rules: [], fallback: { content: { score: 5, reason: 'Clear answer.' }, usage: { input_tokens: 1000, output_tokens: 50 } } } });
    const env = { ANTHROPIC_BASE_URL: llm.anthropicBaseUrl, ANTHROPIC_API_KEY: 'sk-ant-fake-batch' };
    const args = ['monitor', '--logs', 'conversations.jsonl', '--batch', '--format', 'json'];
    const first = await parleyAsync(args, { cwd: suite, env });
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).batch.batches).toEqual([expect.objectContaining({ batch_id: expect.stringMatching(/^msgbatch_fake_/), provider: 'anthropic', model: 'claude-sonnet-4-6', requests: n, state: 'submitted' })]);
    expect(llm.requests.some((request) => request.path === '/v1/messages')).toBe(false);

    llm.completeBatches();
    const collected = JSON.parse((await parleyAsync(args, { cwd: suite, env })).stdout);
    expect(collected.judged).toHaveLength(n);
    expect(collected.judged.every((item: { scores: Array<{ score: number }> }) => item.scores[0]!.score === 1)).toBe(true);
    // claude-sonnet-4-6 at $3 / $15 per million, halved for batches.
    expect(collected.spent_usd).toBeCloseTo((n * (1000 * 3 + 50 * 15)) / 2 / 1e6, 12);
  });

  it("collects a batch from the judge's own base_url in parley.yaml, not from OPENAI_BASE_URL", async () => {
    llm = await startFakeLlm({ script: { rules: [], fallback: { content: JSON.stringify({ score: 4, reason: 'Clear answer.' }), usage: { input_tokens: 1000, output_tokens: 50 } } } });
    const suite = writeSuite({
      ...MONITORED_SUITE,
      'parley.yaml': MONITORED_SUITE['parley.yaml']!.replace('primary: { provider: openai, model: gpt-4.1, temperature: 0 }', `primary: { provider: openai, model: gpt-4.1, temperature: 0, base_url: "${llm.openaiBaseUrl}", api_key_env: JUDGE_KEY }`),
    });
    const n = writeLogs(suite).length;
    // OPENAI_BASE_URL points at a port nothing listens on: a poll sent there fails.
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-wrong', JUDGE_KEY: 'sk-fake-judge' };
    const args = ['monitor', '--logs', 'conversations.jsonl', '--batch', '--format', 'json'];
    const first = await parleyAsync(args, { cwd: suite, env });
    expect(first.status, first.stderr).toBe(0);
    expect(llm.batches()).toHaveLength(1);
    llm.completeBatches();
    const second = await parleyAsync(args, { cwd: suite, env });
    expect(second.status, second.stderr).toBe(0);
    const collected = JSON.parse(second.stdout);
    expect(collected.batch.batches).toEqual([expect.objectContaining({ state: 'collected', requests: n })]);
    expect(collected.judged).toHaveLength(n);
  });

  it('estimates a dry run at batch prices', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    writeLogs(suite);
    const normal = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--dry-run', '--format', 'json'], { cwd: suite });
    const batch = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--dry-run', '--batch', '--format', 'json'], { cwd: suite });
    expect(JSON.parse(batch.stdout).estimated_usd).toBeCloseTo(JSON.parse(normal.stdout).estimated_usd / 2, 12);
  });
});
