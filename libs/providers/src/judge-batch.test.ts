import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContext, CompletionRequest } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { anthropicBatchClient, batchResponse, createBatchClient, openAiBatchClient, type BatchClient } from './judge-batch.js';
import { batchPrices, costOfCall } from './pricing.js';
import { requestKey } from './request-key.js';

/**
 * The batch APIs through the real SDKs against tools/fake-llm: requests go up as one batch, the
 * batch stays in progress until the fake is told to finish it (no timer), then every answer comes
 * back under its custom_id and reads as a live call's answer would.
 */
let server: FakeLlmServer;
const context: CallContext = { role: 'judge', scenario_id: 'batch', turn: 0 };

beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        { when: { last_user: '/Grace/' }, reply: { content: '{"score": 5, "reason": "clear"}', usage: { input_tokens: 900, output_tokens: 30 } } },
        { when: { last_user: '/Amina/' }, reply: { content: '{"score": 2, "reason": "no slot offered"}', usage: { input_tokens: 800, output_tokens: 30 } } },
      ],
    },
  });
});
afterAll(async () => {
  await server?.close();
});

function judgeRequest(provider: 'openai' | 'anthropic', who: string): CompletionRequest {
  return {
    provider,
    model: provider === 'openai' ? 'gpt-4.1' : 'claude-sonnet-4-6',
    system: 'You are a judge.',
    cache_system: true,
    messages: [{ role: 'user', content: `[1] user: I am ${who}, a blow-dry please.` }],
    temperature: 0,
    ...(provider === 'anthropic' ? { max_tokens: 512 } : {}),
  };
}

async function roundTrip(client: BatchClient, provider: 'openai' | 'anthropic') {
  const requests = [judgeRequest(provider, 'Grace'), judgeRequest(provider, 'Amina')];
  const items = requests.map((request) => ({ custom_id: requestKey(request), request }));
  const batchId = await client.submit(items);
  const before = await client.poll(batchId);
  expect(before.status).toBe('in_progress');
  expect(server.completeBatches()).toBe(1);
  const after = await client.poll(batchId);
  if (after.status !== 'ended') throw new Error(`batch ${batchId} did not end: ${after.status}`);
  return { batchId, items, results: after.results };
}

describe('judge batches', () => {
  it('OpenAI: uploads the requests as a JSONL file, creates a batch, and reads the output file once it completed', async () => {
    const { batchId, items, results } = await roundTrip(openAiBatchClient({ apiKey: 'sk-test-BATCH-0123', baseURL: server.openaiBaseUrl }), 'openai');
    const calls = server.requests.filter((request) => request.api !== 'control').map((request) => `${request.method} ${request.path}`);
    expect(calls).toEqual(expect.arrayContaining(['POST /v1/files', 'POST /v1/batches', `GET /v1/batches/${batchId}`, expect.stringMatching(/^GET \/v1\/files\/file-fake-\d+\/content$/)]));
    // No request went to the synchronous endpoint.
    expect(calls.some((call) => call.includes('/chat/completions'))).toBe(false);
    expect(server.batches().find((batch) => batch.id === batchId)).toMatchObject({ api: 'openai', status: 'completed', custom_ids: items.map((item) => item.custom_id), models: ['gpt-4.1', 'gpt-4.1'] });
    const [grace, amina] = items.map((item) => {
      const result = results.get(item.custom_id);
      if (!result?.ok) throw new Error(`no answer for ${item.custom_id}`);
      return batchResponse('openai', result.body, item.request, context);
    });
    expect(grace).toMatchObject({ content: '{"score": 5, "reason": "clear"}', usage: { input_tokens: 900, output_tokens: 30 } });
    expect(amina!.content).toContain('no slot offered');
  });

  it('Anthropic: creates a message batch, and streams its results once it ended', async () => {
    const { batchId, items, results } = await roundTrip(anthropicBatchClient({ apiKey: 'sk-ant-test-BATCH-0123', baseURL: server.anthropicBaseUrl }), 'anthropic');
    const created = server.requests.find((request) => request.path === '/v1/messages/batches' && request.method === 'POST')!;
    const params = (created.body as { requests: Array<{ custom_id: string; params: { system: unknown } }> }).requests;
    expect(params.map((request) => request.custom_id)).toEqual(items.map((item) => item.custom_id));
    // The judge's cacheable prefix is marked in batches too.
    expect(params[0]!.params.system).toEqual([{ type: 'text', text: 'You are a judge.', cache_control: { type: 'ephemeral' } }]);
    expect(server.requests.some((request) => request.path === `/v1/messages/batches/${batchId}/results`)).toBe(true);
    const result = results.get(items[1]!.custom_id);
    if (!result?.ok) throw new Error('no answer for Amina');
    expect(batchResponse('anthropic', result.body, items[1]!.request, context)).toMatchObject({ content: '{"score": 2, "reason": "no slot offered"}', usage: { input_tokens: 800, output_tokens: 30 } });
  });

  it('reports a request the script cannot answer as that request\'s error, not the batch\'s', async () => {
    const client = openAiBatchClient({ apiKey: 'sk-test-BATCH-0123', baseURL: server.openaiBaseUrl });
    const request = judgeRequest('openai', 'Nobody');
    const batchId = await client.submit([{ custom_id: 'nobody', request }]);
    server.completeBatches([batchId]);
    const poll = await client.poll(batchId);
    expect(poll.status === 'ended' && poll.results.get('nobody')).toMatchObject({ ok: false, message: expect.stringContaining('no rule matched') });
  });

  it('Anthropic: a batch that ran out of time ends with every request expired (no answers)', async () => {
    const client = anthropicBatchClient({ apiKey: 'sk-ant-test-BATCH-0123', baseURL: server.anthropicBaseUrl });
    const request = judgeRequest('anthropic', 'Grace');
    const batchId = await client.submit([{ custom_id: 'late', request }]);
    expect(server.expireBatches([batchId])).toBe(1);
    const poll = await client.poll(batchId);
    expect(poll.status === 'ended' && poll.results.get('late')).toEqual({ ok: false, message: 'expired' });
  });

  it('needs the provider key, as live calls do, and an openai or anthropic judge', () => {
    expect(() => createBatchClient({ kind: 'openai' }, {})).toThrow(/OPENAI_API_KEY is not set/);
    expect(() => createBatchClient({ kind: 'openai-compatible' }, { OPENAI_API_KEY: 'sk' })).toThrow(/openai or anthropic judge/);
  });

  it('prices batch calls at half', () => {
    const usage = { input_tokens: 1000, output_tokens: 100 };
    expect(costOfCall('gpt-4.1', usage, batchPrices())).toBeCloseTo(costOfCall('gpt-4.1', usage)! / 2, 12);
    expect(batchPrices({ 'my-model': { input: 4, output: 8 } })['my-model']).toEqual({ input: 2, output: 4 });
  });
});
