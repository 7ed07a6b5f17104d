import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompletionRequest, ProviderKind } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { createAnthropicProvider } from './anthropic-provider.js';
import { createOpenAiProvider } from './openai-provider.js';
import { resilientProvider } from './resilient-provider.js';

/**
 * Every fault tools/fake-llm can inject, through the real SDKs and the full resilience stack
 * (retry ⟶ timeout ⟶ SDK): a fault that clears is retried into an answer; one that persists ends
 * in a clear error after the allowed attempts. Backoff waits and the call deadline are injected,
 * so nothing here sleeps: the deadline fires the moment the fake server receives a hanging call.
 */
const FAULTS = [
  { name: '429', fault: { kind: 'status', status: 429, retry_after: 3, message: 'slow down' }, kind: 'rate_limited', message: /HTTP 429/ },
  { name: '500', fault: { kind: 'status', status: 500, message: 'internal error' }, kind: 'http', message: /HTTP 500/ },
  { name: 'hang', fault: { kind: 'hang' }, kind: 'timeout', message: /timed out after 5000 ms/ },
  { name: 'malformed', fault: { kind: 'malformed' }, kind: 'malformed_response', message: /not valid JSON|malformed|answered without/ },
  { name: 'reset', fault: { kind: 'reset' }, kind: 'connection', message: /connection|failed/i },
] as const;

let server: FakeLlmServer;
const timers = new Set<() => void>();
const arrivals = new Map<string, number>();

beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      // One rule per SDK: `fault.times` counts a rule's calls across the whole file.
      rules: FAULTS.flatMap(({ name, fault }) =>
        (['openai', 'anthropic'] as const).flatMap((kind) => [
          { when: { model: `clears-${name}-${kind}` }, fault: { ...fault, times: 1 }, reply: { content: `recovered from ${name}` } },
          { when: { model: `persists-${name}-${kind}` }, fault },
        ]),
      ),
    },
    onRequest(entry) {
      const model = String(entry.model);
      const count = (arrivals.get(model) ?? 0) + 1;
      arrivals.set(model, count);
      const hangs = model.startsWith('persists-hang-') || (model.startsWith('clears-hang-') && count === 1);
      if (hangs) setImmediate(() => [...timers].forEach((fire) => fire()));
    },
  });
});

afterAll(async () => {
  await server?.close();
});

function stack(kind: ProviderKind, waits: number[]) {
  const live =
    kind === 'anthropic'
      ? createAnthropicProvider({ apiKey: 'sk-test-FAULTS-0123456789', baseURL: server.anthropicBaseUrl })
      : createOpenAiProvider({ apiKey: 'sk-test-FAULTS-0123456789', baseURL: server.openaiBaseUrl });
  return resilientProvider(live, {
    timeoutMs: 5000,
    retry: { maxRetries: 2, baseDelayMs: 100 },
    dependencies: {
      sleep: async (milliseconds) => void waits.push(milliseconds),
      random: () => 1,
      schedule: (_milliseconds, fire) => {
        timers.add(fire);
        return () => timers.delete(fire);
      },
    },
  });
}

const request = (kind: ProviderKind, model: string): CompletionRequest => ({ provider: kind, model, messages: [{ role: 'user', content: 'Habari' }] });
const context = { role: 'agent' as const, scenario_id: 'faults', turn: 1 };

describe.each(['openai', 'anthropic'] as const)('faults through the real %s SDK', (kind) => {
  it.each(FAULTS)('a passing $name fault is retried into an answer', async ({ name }) => {
    const waits: number[] = [];
    const before = server.requests.length;
    const answer = await stack(kind, waits).complete(request(kind, `clears-${name}-${kind}`), context);
    expect(answer.content).toBe(`recovered from ${name}`);
    expect(server.requests.length - before).toBe(2);
    // The 429 asked for 3 s (Retry-After); the others wait the first backoff (random 1 × 100 ms).
    expect(waits).toEqual([name === '429' ? 3000 : 100]);
  });

  it.each(FAULTS)('a lasting $name fault ends in a clear $kind error after 3 attempts', async ({ name, kind: errorKind, message }) => {
    const waits: number[] = [];
    const before = server.requests.length;
    const error = await stack(kind, waits).complete(request(kind, `persists-${name}-${kind}`), context).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: errorKind, message: expect.stringMatching(message) });
    expect((error as Error).message).toContain('(gave up after 3 attempts)');
    expect((error as Error).message).not.toContain('sk-test-FAULTS');
    expect(server.requests.length - before).toBe(3);
    expect(waits).toHaveLength(2);
  });
});
