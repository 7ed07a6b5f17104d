import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, type CallContext, type CompletionRequest } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { createAnthropicProvider } from './anthropic-provider.js';
import { createOpenAiProvider } from './openai-provider.js';
import { batchPrices, cacheSavingOfCall, costOfCall } from './pricing.js';
import { createRecorder, writeRecording } from './recording.js';
import { readRecording } from './read-recording.js';

/**
 * Prompt caching through the real SDKs against tools/fake-llm: a judge request marks its system
 * prompt (the rubric and instructions) as a cacheable prefix; the cached input tokens the
 * provider reports are read from its usage, priced at the cache rate, and survive a recording.
 */
let server: FakeLlmServer;
const context: CallContext = { role: 'judge', scenario_id: 'cached', turn: 0 };
const SYSTEM = 'You are a strict judge. Rubric: 5 means the customer got what they asked for…';

beforeAll(async () => {
  server = await startFakeLlm({
    script: { rules: [], fallback: { content: '{"score": 4, "reason": "fine"}', usage: { input_tokens: 2000, output_tokens: 50, cached_input_tokens: 1536 } } },
  });
});

afterAll(async () => {
  await server?.close();
});

function request(provider: 'openai' | 'anthropic', cacheSystem: boolean): CompletionRequest {
  return {
    provider,
    model: provider === 'openai' ? 'gpt-4.1' : 'claude-sonnet-4-6',
    system: SYSTEM,
    messages: [{ role: 'user', content: '[1] user: a blow-dry on Thursday?' }],
    ...(cacheSystem ? { cache_system: true } : {}),
    ...(provider === 'anthropic' ? { max_tokens: 512 } : {}),
  };
}

describe('prompt caching', () => {
  it('Anthropic: the system prompt goes as one cache_control block, and cache reads count as input tokens', async () => {
    const anthropic = createAnthropicProvider({ apiKey: 'sk-ant-test-CACHE-0123456789', baseURL: server.anthropicBaseUrl });
    const response = await anthropic.complete(request('anthropic', true), context);
    const body = server.requests.at(-1)!.body as { system: unknown };
    expect(body.system).toEqual([{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }]);
    // Anthropic reports 464 uncached + 1,536 read from the cache; Parley's input_tokens is all 2,000.
    expect(response.usage).toEqual({ input_tokens: 2000, output_tokens: 50, cached_input_tokens: 1536 });

    const plain = await anthropic.complete(request('anthropic', false), context);
    expect((server.requests.at(-1)!.body as { system: unknown }).system).toBe(SYSTEM);
    expect(plain.usage).toEqual({ input_tokens: 2000, output_tokens: 50 });
  });

  it('OpenAI: prompt_tokens_details.cached_tokens is read (automatic prefix caching needs no marker)', async () => {
    const openai = createOpenAiProvider({ apiKey: 'sk-test-CACHE-0123456789', baseURL: server.openaiBaseUrl });
    const response = await openai.complete(request('openai', true), context);
    expect(response.usage).toEqual({ input_tokens: 2000, output_tokens: 50, cached_input_tokens: 1536 });
    // Nothing Anthropic-specific goes on the OpenAI wire.
    expect(JSON.stringify(server.requests.at(-1)!.body)).not.toContain('cache_control');
  });

  it('prices cached input at the cache rate and says what that saved', () => {
    const usage = { input_tokens: 2000, output_tokens: 50, cached_input_tokens: 1536 };
    // gpt-4.1: $2 / $8 per million; cached input at 0.25×.
    expect(costOfCall('gpt-4.1', usage)).toBeCloseTo((464 * 2 + 1536 * 0.5 + 50 * 8) / 1e6, 12);
    expect(cacheSavingOfCall('gpt-4.1', usage)).toBeCloseTo((1536 * 1.5) / 1e6, 12);
    expect(costOfCall('gpt-4.1', usage)! + cacheSavingOfCall('gpt-4.1', usage)!).toBeCloseTo(costOfCall('gpt-4.1', { input_tokens: 2000, output_tokens: 50 })!, 12);
    // claude-sonnet-4-6: $3 / $15; reads at 0.1×, writes at 1.25× (a write costs more: a negative saving).
    expect(costOfCall('claude-sonnet-4-6', usage)).toBeCloseTo((464 * 3 + 1536 * 0.3 + 50 * 15) / 1e6, 12);
    expect(cacheSavingOfCall('claude-sonnet-4-6', { input_tokens: 2000, output_tokens: 50, cache_write_input_tokens: 1536 })).toBeCloseTo(-(1536 * 0.75) / 1e6, 12);
    expect(cacheSavingOfCall('gpt-4.1', { input_tokens: 2000, output_tokens: 50 })).toBe(0);
    expect(cacheSavingOfCall('no-such-model', usage)).toBeNull();
  });

  it('prices o4-mini cached input at 0.25× ($0.275 of $1.10), and a suite may set cached_input for a model of its own', () => {
    const usage = { input_tokens: 2000, output_tokens: 50, cached_input_tokens: 1536 };
    expect(costOfCall('o4-mini', usage)).toBeCloseTo((464 * 1.1 + 1536 * 0.275 + 50 * 4.4) / 1e6, 12);
    // An Azure deployment of gpt-4.1 under its own name: list prices typed out, cached input $0.50.
    const pricing = { 'team-gpt41': { input: 2, output: 8, cached_input: 0.5 } };
    expect(costOfCall('team-gpt41', usage, pricing)).toBeCloseTo((464 * 2 + 1536 * 0.5 + 50 * 8) / 1e6, 12);
    expect(cacheSavingOfCall('team-gpt41', usage, pricing)).toBeCloseTo((1536 * 1.5) / 1e6, 12);
    // Without cached_input an unknown family is read at half the input price.
    expect(costOfCall('team-other', usage, { 'team-other': { input: 2, output: 8 } })).toBeCloseTo((464 * 2 + 1536 * 1 + 50 * 8) / 1e6, 12);
    // Batch prices halve the cached price too.
    expect(costOfCall('team-gpt41', usage, batchPrices(pricing))).toBeCloseTo((464 * 2 + 1536 * 0.5 + 50 * 8) / 2e6, 12);
  });

  it('a recording keeps the cached tokens, and the cache hint is not part of the recording key', async () => {
    const openai = createOpenAiProvider({ apiKey: 'sk-test-CACHE-0123456789', baseURL: server.openaiBaseUrl });
    const recorder = createRecorder(manualClock(new Date('2026-11-26T12:00:00Z')));
    const hinted = request('openai', true);
    recorder.add(hinted, await openai.complete(hinted, context), context);
    const path = join(mkdtempSync(join(tmpdir(), 'parley-cache-')), 'cached.jsonl');
    writeRecording(path, recorder.entries);
    const [entry] = readRecording(path);
    expect(entry!.usage).toEqual({ input_tokens: 2000, output_tokens: 50, cached_input_tokens: 1536 });
    expect(entry!.request).not.toHaveProperty('cache_system');
    const unhinted = createRecorder(manualClock(new Date('2026-11-26T12:00:00Z')));
    unhinted.add(request('openai', false), await openai.complete(request('openai', false), context), context);
    expect(unhinted.entries[0]!.key).toBe(entry!.key);
  });
});
