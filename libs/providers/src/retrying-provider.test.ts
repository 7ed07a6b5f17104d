import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompletionRequest, CompletionResponse, Provider } from '@parley/core';
import { ProviderError } from './provider-error.js';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, retryingProvider } from './retrying-provider.js';

const request: CompletionRequest = { provider: 'openai', model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'hi' }] };
const context = { role: 'agent' as const, scenario_id: 's', turn: 1 };
const answer: CompletionResponse = { content: 'ok', tool_calls: [], usage: { input_tokens: 1, output_tokens: 1 }, finish_reason: 'stop', model: 'm', latency_ms: 1 };

/** Fails with the given errors in order, then answers; counts attempts. */
function flaky(errors: Error[]): Provider & { attempts: number } {
  const provider = {
    attempts: 0,
    async complete() {
      provider.attempts += 1;
      const error = errors.shift();
      if (error) throw error;
      return answer;
    },
  };
  return provider;
}

/** A sleeper that records the waits instead of waiting. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (milliseconds: number) => void waits.push(milliseconds) };
}

describe('retryingProvider', () => {
  it('retries 429, 5xx, timeouts, dropped connections and malformed bodies, then answers', async () => {
    const inner = flaky([
      new ProviderError('rate_limited', '429', { status: 429, retryAfterSeconds: 2 }),
      new ProviderError('http', '503', { status: 503 }),
      new ProviderError('timeout', 'timed out'),
      new ProviderError('connection', 'reset'),
      new ProviderError('malformed_response', 'cut off'),
    ]);
    const { waits, sleep } = recordingSleep();
    const provider = retryingProvider(inner, { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 10_000 }, { sleep, random: () => 0.5 });
    await expect(provider.complete(request, context)).resolves.toEqual(answer);
    expect(inner.attempts).toBe(6);
    // Retry-After 2 s beats the first backoff (0.5 × 100 ms); then 0.5 × 200, 400, 800, 1600.
    expect(waits).toEqual([2000, 100, 200, 400, 800]);
  });

  it('gives up after maxRetries with the last error and the attempt count', async () => {
    const inner = flaky(Array.from({ length: 10 }, () => new ProviderError('http', 'openai answered HTTP 500: boom', { status: 500 })));
    const { waits, sleep } = recordingSleep();
    const error = await retryingProvider(inner, { maxRetries: 2 }, { sleep, random: () => 0 }).complete(request, context).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'http', status: 500, message: 'openai answered HTTP 500: boom (gave up after 3 attempts)' });
    expect(inner.attempts).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it('does not retry what another attempt cannot fix', async () => {
    for (const error of [
      new ProviderError('http', '400', { status: 400 }),
      new ProviderError('missing_api_key', 'no key'),
      new ProviderError('replay_miss', 'miss'),
      new ProviderError('agent', 'agent failed'),
      new Error('a bug'),
    ]) {
      const inner = flaky([error]);
      await expect(retryingProvider(inner, {}, { sleep: async () => {} }).complete(request, context)).rejects.toBe(error);
      expect(inner.attempts).toBe(1);
    }
  });

  it('stops waiting and reports an abort when the run is aborted during a backoff', async () => {
    const controller = new AbortController();
    const inner = flaky([new ProviderError('http', '502', { status: 502 })]);
    const sleep = async (_milliseconds: number, signal?: AbortSignal) => {
      controller.abort();
      signal?.throwIfAborted();
    };
    await expect(retryingProvider(inner, {}, { sleep }).complete(request, context, controller.signal)).rejects.toMatchObject({ kind: 'aborted' });
    expect(inner.attempts).toBe(1);
  });
});

describe('backoffDelayMs', () => {
  it('stays within [0, cap] and never undercuts a Retry-After below the cap (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.double({ min: 0, max: 0.999, noNaN: true }), fc.option(fc.double({ min: 0, max: 100, noNaN: true })), (attempt, random, retryAfter) => {
        const delay = backoffDelayMs(attempt, DEFAULT_RETRY_POLICY, random, retryAfter ?? undefined);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.maxDelayMs);
        if (retryAfter !== null) expect(delay).toBeGreaterThanOrEqual(Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, retryAfter * 1000));
      }),
    );
  });
});
