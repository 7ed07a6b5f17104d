/**
 * The server driven by the real `openai` and `@anthropic-ai/sdk` clients: if these pass, the
 * bodies are what the SDKs parse, not just what we think they parse.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { manualClock } from '@parley/core';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeScript } from './script-schema.js';
import { startFakeLlm, type FakeLlmServer } from './server.js';

const API_KEY = 'sk-test-SECRET123';

let fake: FakeLlmServer;
let openai: OpenAI;
let anthropic: Anthropic;
let logFile: string;

beforeAll(async () => {
  logFile = join(mkdtempSync(join(tmpdir(), 'fake-llm-server-')), 'requests.jsonl');
  fake = await startFakeLlm({ logFile, clock: manualClock(new Date('2026-11-26T12:00:00Z')) });
  openai = new OpenAI({ baseURL: fake.openaiBaseUrl, apiKey: API_KEY, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: fake.anthropicBaseUrl, apiKey: API_KEY, maxRetries: 0 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.resetLog();
});

function useScript(script: FakeScript): void {
  fake.setScript(script);
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'check_availability', parameters: { type: 'object', properties: { date: { type: 'string' } } } },
  },
];

const bookingScript: FakeScript = {
  rules: [
    {
      name: 'ask-tool',
      when: { last_message_role: 'user', last_user: '/massage/i' },
      reply: { content: '', tool_calls: [{ name: 'check_availability', args: { date: '2026-11-28' } }] },
    },
    {
      name: 'after-tool',
      when: { last_tool: 'check_availability', any_message: '10:00' },
      reply: { content: 'Tuna nafasi saa 4 asubuhi (10:00).' },
    },
  ],
};

describe('with the openai SDK', () => {
  it('answers plain text, with usage estimated from the request and the reply', async () => {
    useScript({ rules: [{ when: { last_user: '/habari/i' }, reply: { content: 'Karibu! Ungependa saa ngapi?' } }] });
    const completion = await openai.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'You book spa appointments.' }, // 26 characters
        { role: 'user', content: 'Habari! Nataka massage.' }, // 23 characters
      ],
    });
    expect(completion.id).toBe('chatcmpl-fake-000001');
    expect(completion.model).toBe('gpt-4.1-mini');
    expect(completion.choices[0]?.message.content).toBe('Karibu! Ungependa saa ngapi?');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toEqual({ prompt_tokens: 13, completion_tokens: 7, total_tokens: 20 });
  });

  it('scripts a tool call, then answers the turn that carries the tool result', async () => {
    useScript(bookingScript);
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Nataka massage Jumamosi.' }];
    const first = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages, tools });
    const firstChoice = first.choices[0];
    const call = firstChoice?.message.tool_calls?.[0];
    expect(firstChoice?.finish_reason).toBe('tool_calls');
    expect(firstChoice?.message.content).toBeNull();
    if (!firstChoice || call?.type !== 'function') throw new Error('expected a function call');
    expect(call.function.name).toBe('check_availability');
    expect(JSON.parse(call.function.arguments)).toEqual({ date: '2026-11-28' });

    messages.push(firstChoice.message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify({ slots: ['10:00'] }) });
    const second = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages, tools });
    expect(second.choices[0]?.message.content).toBe('Tuna nafasi saa 4 asubuhi (10:00).');
    expect(fake.requests.map((request) => request.rule)).toEqual(['ask-tool', 'after-tool']);
  });

  it('returns scripted content as is when the request asks for a json_schema response', async () => {
    useScript({ rules: [{ when: { header: { 'x-parley-role': 'judge' } }, reply: { content: { score: 80, reason: 'warm' } } }] });
    const completion = await openai.chat.completions.create(
      {
        model: 'gpt-4.1',
        messages: [{ role: 'user', content: 'Judge this conversation.' }],
        response_format: { type: 'json_schema', json_schema: { name: 'verdict', schema: { type: 'object' } } },
      },
      { headers: { 'x-parley-role': 'judge' } },
    );
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ score: 80, reason: 'warm' });
  });

  it('reports scripted usage', async () => {
    useScript({ rules: [{ reply: { content: 'ok', usage: { input_tokens: 120, output_tokens: 18 } } }] });
    const completion = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'x' }] });
    expect(completion.usage).toEqual({ prompt_tokens: 120, completion_tokens: 18, total_tokens: 138 });
  });

  it('lists the models of the script', async () => {
    useScript({ rules: [{ when: { model: 'gpt-4.1-mini' }, reply: {} }, { when: { model: '/claude/' }, reply: {} }] });
    const models = await openai.models.list();
    expect(models.data.map((model) => model.id)).toEqual(['gpt-4.1-mini']);
  });
});

describe('with the Anthropic SDK', () => {
  it('answers plain text with usage', async () => {
    useScript({ rules: [{ when: { api: 'anthropic', system: 'spa' }, reply: { content: 'Karibu!', usage: { output_tokens: 3 } } }] });
    const message = await anthropic.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 256,
      system: 'You book spa appointments.',
      messages: [{ role: 'user', content: 'Habari' }],
    });
    expect(message.id).toBe('msg_fake_000001');
    expect(message.content).toEqual([{ type: 'text', text: 'Karibu!', citations: null }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ input_tokens: 8, output_tokens: 3 });
  });

  it('scripts a tool_use, then answers the turn that carries the tool_result', async () => {
    useScript(bookingScript);
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Nataka massage Jumamosi.' }];
    const first = await anthropic.messages.create({ model: 'claude-opus-4-7', max_tokens: 256, messages });
    const toolUse = first.content.find((block) => block.type === 'tool_use');
    expect(first.stop_reason).toBe('tool_use');
    if (toolUse?.type !== 'tool_use') throw new Error('expected a tool_use block');
    expect(toolUse).toMatchObject({ name: 'check_availability', input: { date: '2026-11-28' } });

    messages.push(
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: JSON.stringify({ slots: ['10:00'] }) }] },
    );
    const second = await anthropic.messages.create({ model: 'claude-opus-4-7', max_tokens: 256, messages });
    expect(second.content).toEqual([{ type: 'text', text: 'Tuna nafasi saa 4 asubuhi (10:00).', citations: null }]);
    expect(fake.requests.map((request) => request.rule)).toEqual(['ask-tool', 'after-tool']);
  });

  it('gives JSON content as the input of a tool the request forces', async () => {
    useScript({ rules: [{ reply: { content: '{"score": 92, "reason": "asks one question at a time"}' } }] });
    const message = await anthropic.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Judge this conversation.' }],
      tools: [{ name: 'verdict', input_schema: { type: 'object' } }],
      tool_choice: { type: 'tool', name: 'verdict' },
    });
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'toolu_fake_000001_1', name: 'verdict', input: { score: 92, reason: 'asks one question at a time' } },
    ]);
  });
});

describe('rules', () => {
  it('picks the first rule whose conditions hold, across both APIs', async () => {
    useScript({
      rules: [
        { name: 'judge', when: { header: { 'x-parley-role': 'judge' } }, reply: { content: 'judge' } },
        { name: 'claude', when: { model: '/^claude-/' }, reply: { content: 'claude' } },
        { name: 'second-turn', when: { message_count: 3, any_message: 'BK-1042' }, reply: { content: 'second turn' } },
        { name: 'openai', when: { api: 'openai' }, reply: { content: 'openai' } },
      ],
    });
    const ask = async (content: string, options: { headers?: Record<string, string>; earlier?: string[] } = {}) => {
      const history = (options.earlier ?? []).map((text, index) =>
        index % 2 === 0 ? { role: 'user' as const, content: text } : { role: 'assistant' as const, content: text },
      );
      const completion = await openai.chat.completions.create(
        { model: 'gpt-4.1-mini', messages: [...history, { role: 'user', content }] },
        { headers: options.headers ?? {} },
      );
      return completion.choices[0]?.message.content;
    };
    expect(await ask('hi', { headers: { 'x-parley-role': 'judge' } })).toBe('judge');
    expect(await ask('hi', { earlier: ['book it', 'Booked: BK-1042'] })).toBe('second turn');
    expect(await ask('hi')).toBe('openai');
    const claude = await anthropic.messages.create({ model: 'claude-opus-4-7', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(claude.content[0]).toMatchObject({ text: 'claude' });
  });

  it('walks through `replies`, then falls through once `times` is used up', async () => {
    useScript({
      rules: [
        { name: 'greeting', times: 1, reply: { content: 'Karibu!' } },
        { name: 'sequence', replies: [{ content: 'first' }, { content: 'second' }] },
      ],
    });
    const answers: Array<string | null | undefined> = [];
    for (let call = 0; call < 4; call += 1) {
      const completion = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
      answers.push(completion.choices[0]?.message.content);
    }
    expect(answers).toEqual(['Karibu!', 'first', 'second', 'second']);
  });

  it('answers with the fallback, or else a 400 that names the last user message', async () => {
    useScript({ rules: [{ when: { last_user: 'Habari' }, reply: { content: 'Karibu!' } }], fallback: { content: 'Samahani, sielewi.' } });
    const fallback = await anthropic.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'Jambo' }] });
    expect(fallback.content[0]).toMatchObject({ text: 'Samahani, sielewi.' });

    useScript({ rules: [{ when: { last_user: 'Habari' }, reply: { content: 'Karibu!' } }] });
    const openaiError = await rejectionOf(openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Jambo sana' }] }));
    expect(openaiError).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String(openaiError)).toContain('last user message: "Jambo sana"');
    const anthropicError = await rejectionOf(anthropic.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'Jambo' }] }));
    expect(anthropicError).toBeInstanceOf(Anthropic.BadRequestError);
    if (!(anthropicError instanceof Anthropic.APIError)) throw anthropicError;
    expect(anthropicError.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(fake.requests.map((request) => [request.rule, request.status])).toEqual([
      [null, 200],
      [null, 400],
      [null, 400],
    ]);
  });

  it('waits the latency of the rule, else the default, before answering', async () => {
    const waits: number[] = [];
    const timed = await startFakeLlm({
      script: { defaults: { latency_ms: 40 }, rules: [{ times: 1, latency_ms: 100, reply: { content: 'slow' } }, { reply: { content: 'default' } }] },
      wait: async (milliseconds) => {
        waits.push(milliseconds);
      },
    });
    try {
      const client = new OpenAI({ baseURL: timed.openaiBaseUrl, apiKey: API_KEY, maxRetries: 0 });
      for (let call = 0; call < 2; call += 1) await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
      expect(waits).toEqual([100, 40]);
    } finally {
      await timed.close();
    }
  });
});

describe('request log', () => {
  it('records every request in order, and never the API key', async () => {
    useScript({ rules: [{ name: 'any', reply: { content: 'ok' } }] });
    await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'one' }] });
    await anthropic.messages.create(
      { model: 'claude-opus-4-7', max_tokens: 10, messages: [{ role: 'user', content: 'two' }] },
      { headers: { 'x-session-token': 'tok-SECRET456' } },
    );
    const viaEndpoint: unknown = await (await fetch(`${fake.url}/_fake/requests`)).json();

    expect(fake.requests).toHaveLength(3);
    expect(fake.requests.slice(0, 2)).toMatchObject([
      { seq: 1, at: '2026-11-26T12:00:00.000Z', api: 'openai', method: 'POST', path: '/v1/chat/completions', model: 'gpt-4.1-mini', rule: 'any', status: 200 },
      { seq: 2, api: 'anthropic', path: '/v1/messages', model: 'claude-opus-4-7', rule: 'any', status: 200 },
    ]);
    expect(fake.requests[0]?.body).toMatchObject({ messages: [{ role: 'user', content: 'one' }] });
    expect(fake.requests[0]?.headers['authorization']).toBe('[redacted]');
    // This SDK version sends the key as a bearer token; x-api-key is covered by redact-headers.test.ts.
    expect(fake.requests[1]?.headers).toMatchObject({ authorization: '[redacted]', 'x-session-token': '[redacted]' });
    expect(fake.requests[2]).toMatchObject({ seq: 3, api: 'control', method: 'GET', path: '/_fake/requests', status: 200 });
    expect(viaEndpoint).toHaveLength(2);

    const everything = JSON.stringify(fake.requests) + JSON.stringify(viaEndpoint) + readFileSync(logFile, 'utf8');
    expect(everything).toContain('one');
    expect(everything).not.toContain('SECRET123');
    expect(everything).not.toContain('SECRET456');
  });

  it('appends settled requests to the log file as JSON lines', async () => {
    useScript({ rules: [{ reply: { content: 'ok' } }] });
    const before = readFileSync(logFile, 'utf8').split('\n').filter(Boolean).length;
    await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'logged' }] });
    const lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(before + 1);
    expect(JSON.parse(lines.at(-1) ?? '')).toMatchObject({ seq: 1, api: 'openai', status: 200, body: { messages: [{ content: 'logged' }] } });
  });

  it('gives the same answers, ids included, to the same conversation after a reset', async () => {
    useScript({ rules: [{ replies: [{ content: 'a', tool_calls: [{ name: 't' }] }, { content: 'b' }] }] });
    const conversation = async () => {
      const answers = [];
      for (let call = 0; call < 2; call += 1) {
        answers.push(await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
      }
      return answers;
    };
    const first = await conversation();
    expect((await fetch(`${fake.url}/_fake/reset`, { method: 'POST' })).status).toBe(200);
    expect(fake.requests).toEqual([]);
    expect(await conversation()).toEqual(first);
  });
});

describe('control endpoints', () => {
  it('PUT /_fake/script replaces the script, and refuses an invalid one with its issues', async () => {
    useScript({ rules: [{ reply: { content: 'old' } }] });
    const put = (script: unknown) => fetch(`${fake.url}/_fake/script`, { method: 'PUT', body: JSON.stringify(script) });
    expect((await put({ rules: [{ reply: { content: 'new' } }] })).status).toBe(200);
    const completion = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(completion.choices[0]?.message.content).toBe('new');

    const refused = await put({ rules: [{ when: { last_usr: 'x' }, reply: {} }] });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { issues: [{ file: 'PUT /_fake/script', message: expect.stringContaining('last_usr') }] } });
  });

  it('answers an unknown path with 404 and a body that is not JSON with 400', async () => {
    expect((await fetch(`${fake.url}/v1/embeddings`, { method: 'POST', body: '{}' })).status).toBe(404);
    const broken = await fetch(`${fake.url}/v1/chat/completions`, { method: 'POST', body: '{"model": ' });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('not valid JSON') } });
    expect(fake.requests.at(-1)).toMatchObject({ api: 'openai', body: '{"model": ', status: 400 });
  });

  it('refuses a streaming request with a 400 that says so', async () => {
    useScript({ rules: [{ reply: { content: 'ok' } }] });
    const error = await rejectionOf(openai.chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String(error)).toContain('streaming is not supported');
  });
});
