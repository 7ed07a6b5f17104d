/** Each scripted fault, as the real SDKs experience it. */
import { request as httpRequest } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer } from './server.js';

const API_KEY = 'sk-test-SECRET123';

let fake: FakeLlmServer;

beforeAll(async () => {
  fake = await startFakeLlm();
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.resetLog();
});

const openaiClient = (options: { maxRetries?: number; timeout?: number } = {}) =>
  new OpenAI({ baseURL: fake.openaiBaseUrl, apiKey: API_KEY, maxRetries: 0, ...options });
const anthropicClient = (options: { maxRetries?: number; timeout?: number } = {}) =>
  new Anthropic({ baseURL: fake.anthropicBaseUrl, apiKey: API_KEY, maxRetries: 0, ...options });

const askOpenAi = (client: OpenAI) => client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Habari' }] });
const askAnthropic = (client: Anthropic) =>
  client.messages.create({ model: 'claude-opus-4-7', max_tokens: 64, messages: [{ role: 'user', content: 'Habari' }] });

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

describe('fault: status', () => {
  it('sends 429 with Retry-After and the provider error body to a client that does not retry', async () => {
    fake.setScript({ rules: [{ name: 'limited', fault: { kind: 'status', status: 429, retry_after: 1 }, reply: { content: 'ok' } }] });
    const openaiError = await rejectionOf(askOpenAi(openaiClient()));
    expect(openaiError).toBeInstanceOf(OpenAI.RateLimitError);
    if (!(openaiError instanceof OpenAI.APIError)) throw openaiError;
    expect(openaiError.status).toBe(429);
    expect(openaiError.headers?.get('retry-after')).toBe('1');
    expect(openaiError.headers?.get('retry-after-ms')).toBe('1000');
    expect(openaiError.code).toBe('rate_limit_exceeded');

    const anthropicError = await rejectionOf(askAnthropic(anthropicClient()));
    expect(anthropicError).toBeInstanceOf(Anthropic.RateLimitError);
    if (!(anthropicError instanceof Anthropic.APIError)) throw anthropicError;
    expect(anthropicError.headers?.get('retry-after')).toBe('1');
    expect(anthropicError.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(fake.requests.map((request) => [request.rule, request.status, request.fault])).toEqual([
      ['limited', 429, 'status'],
      ['limited', 429, 'status'],
    ]);
  });

  it('lets a retrying client succeed once the faults of fault.times are used up', async () => {
    const script = { rules: [{ fault: { kind: 'status' as const, status: 429, retry_after: 0.02, times: 1 }, reply: { content: 'Karibu!' } }] };
    fake.setScript(script);
    const completion = await askOpenAi(openaiClient({ maxRetries: 2 }));
    expect(completion.choices[0]?.message.content).toBe('Karibu!');

    fake.setScript(script);
    const message = await askAnthropic(anthropicClient({ maxRetries: 2 }));
    expect(message.content[0]).toMatchObject({ text: 'Karibu!' });
    expect(fake.requests.map((request) => request.status)).toEqual([429, 200, 429, 200]);
  });

  it('sends 500 as a server error of each provider', async () => {
    fake.setScript({ rules: [{ fault: { kind: 'status', status: 500, message: 'boom' } }] });
    const openaiError = await rejectionOf(askOpenAi(openaiClient()));
    expect(openaiError).toBeInstanceOf(OpenAI.InternalServerError);
    expect(String(openaiError)).toContain('boom');
    const anthropicError = await rejectionOf(askAnthropic(anthropicClient()));
    expect(anthropicError).toBeInstanceOf(Anthropic.InternalServerError);
    if (!(anthropicError instanceof Anthropic.APIError)) throw anthropicError;
    expect(anthropicError.error).toMatchObject({ error: { type: 'api_error', message: 'boom' } });
  });
});

describe('fault: hang', () => {
  it('never answers, so a client with a short timeout times out', async () => {
    fake.setScript({ rules: [{ fault: { kind: 'hang' } }] });
    expect(await rejectionOf(askOpenAi(openaiClient({ timeout: 200 })))).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    expect(await rejectionOf(askAnthropic(anthropicClient({ timeout: 200 })))).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    expect(fake.requests.map((request) => [request.status, request.fault])).toEqual([
      [null, 'hang'],
      [null, 'hang'],
    ]);
  });

  it(
    'does not keep close() waiting: the hung connection is destroyed',
    async () => {
      let arrived = () => {};
      const hasArrived = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const hanging = await startFakeLlm({ script: { rules: [{ fault: { kind: 'hang' } }] }, onRequest: () => arrived() });
      const clientOutcome = new Promise<string>((resolve) => {
        const request = httpRequest(`${hanging.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' } });
        request.on('response', () => resolve('answered'));
        request.on('error', (error) => resolve(`error: ${error.message}`));
        request.end(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
      });
      await hasArrived;
      await hanging.close();
      expect(await clientOutcome).toMatch(/^error: /);
    },
    // Without closeAllConnections, close() waits for the client forever; fail fast instead.
    3_000,
  );
});

describe('fault: malformed', () => {
  it('answers 200 with a body the SDK cannot parse', async () => {
    fake.setScript({ rules: [{ fault: { kind: 'malformed' } }] });
    expect(await rejectionOf(askOpenAi(openaiClient()))).toBeInstanceOf(SyntaxError);
    expect(await rejectionOf(askAnthropic(anthropicClient()))).toBeInstanceOf(SyntaxError);
    expect(fake.requests.map((request) => [request.status, request.fault])).toEqual([
      [200, 'malformed'],
      [200, 'malformed'],
    ]);
  });
});

describe('fault: reset', () => {
  it('drops the connection without an answer', async () => {
    fake.setScript({ rules: [{ fault: { kind: 'reset', times: 1 }, reply: { content: 'back again' } }] });
    const error = await rejectionOf(askOpenAi(openaiClient()));
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(error).not.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    const completion = await askOpenAi(openaiClient());
    expect(completion.choices[0]?.message.content).toBe('back again');

    fake.setScript({ rules: [{ fault: { kind: 'reset' } }] });
    expect(await rejectionOf(askAnthropic(anthropicClient()))).toBeInstanceOf(Anthropic.APIConnectionError);
  });
});
