import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContext, CompletionRequest } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { isProviderError } from './provider-error.js';
import { createLiveProvider } from './live-provider.js';

const CONTEXT: CallContext = { role: 'agent', scenario_id: 'responses_test', turn: 1 };
let server: FakeLlmServer;

beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        { when: { api: 'openai-responses', model: 'always-500' }, fault: { kind: 'status', status: 500, message: 'upstream exploded' } },
        { when: { api: 'openai-responses', model: 'always-malformed' }, fault: { kind: 'malformed' } },
        { when: { api: 'openai-responses', last_tool: 'check_availability' }, reply: { content: 'Tuna nafasi saa 10:00.', usage: { input_tokens: 120, output_tokens: 7 } } },
        { when: { api: 'openai-responses', last_user: '/massage/' }, reply: { content: 'Naangalia…', tool_calls: [{ name: 'check_availability', args: { day: 'saturday' } }] } },
        { when: { api: 'openai-responses', last_user: '/json/' }, reply: { content: { score: 80 } } },
      ],
    },
  });
});
afterAll(() => server.close());

const provider = () => createLiveProvider({ kind: 'openai-responses' }, { OPENAI_API_KEY: 'sk-test-responses-0123', OPENAI_BASE_URL: server.openaiBaseUrl });
const request = (overrides: Partial<CompletionRequest> = {}): CompletionRequest => ({
  provider: 'openai-responses',
  model: 'gpt-5-mini',
  system: 'You book massages.',
  messages: [{ role: 'user', content: 'Nataka massage Jumamosi.' }],
  tools: [{ name: 'check_availability', description: 'Free slots', parameters: { type: 'object', properties: { day: { type: 'string' } } } }],
  temperature: 0.2,
  max_tokens: 300,
  ...overrides,
});

describe('the OpenAI Responses API provider, through the real SDK against tools/fake-llm', () => {
  it('sends the system prompt as instructions, the tools as function tools, store: false, and reads text and tool calls', async () => {
    const answer = await provider().complete(request(), CONTEXT);
    expect(answer.content).toBe('Naangalia…');
    expect(answer.tool_calls).toEqual([{ id: expect.stringMatching(/^call_fake_/), name: 'check_availability', args: { day: 'saturday' } }]);
    expect(answer.finish_reason).toBe('tool_calls');
    expect(answer.model).toBe('gpt-5-mini');
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe('/v1/responses');
    expect(sent.body).toMatchObject({
      model: 'gpt-5-mini',
      instructions: 'You book massages.',
      store: false,
      temperature: 0.2,
      max_output_tokens: 300,
      input: [{ role: 'user', content: 'Nataka massage Jumamosi.' }],
      tools: [{ type: 'function', name: 'check_availability', description: 'Free slots', strict: false }],
    });
    expect(sent.body).not.toHaveProperty('previous_response_id');
  });

  it('sends the whole history as input items: assistant text, function_call and function_call_output', async () => {
    const answer = await provider().complete(
      request({
        messages: [
          { role: 'user', content: 'Nataka massage Jumamosi.' },
          { role: 'assistant', content: 'Naangalia…', tool_calls: [{ id: 'call_1', name: 'check_availability', args: { day: 'saturday' } }] },
          { role: 'tool', tool_call_id: 'call_1', name: 'check_availability', content: '{"slots":["10:00"]}' },
        ],
      }),
      CONTEXT,
    );
    expect(answer).toMatchObject({ content: 'Tuna nafasi saa 10:00.', tool_calls: [], finish_reason: 'stop', usage: { input_tokens: 120, output_tokens: 7 } });
    expect((server.requests.at(-1)!.body as { input: unknown[] }).input).toEqual([
      { role: 'user', content: 'Nataka massage Jumamosi.' },
      { role: 'assistant', content: 'Naangalia…' },
      { type: 'function_call', call_id: 'call_1', name: 'check_availability', arguments: '{"day":"saturday"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"slots":["10:00"]}' },
    ]);
  });

  it('asks for structured output with text.format json_schema', async () => {
    const answer = await provider().complete(
      request({ tools: [], messages: [{ role: 'user', content: 'Give json' }], response_schema: { name: 'verdict', schema: { type: 'object' } } }),
      CONTEXT,
    );
    expect(JSON.parse(answer.content)).toEqual({ score: 80 });
    expect(server.requests.at(-1)!.body).toMatchObject({ text: { format: { type: 'json_schema', name: 'verdict', schema: { type: 'object' }, strict: true } } });
  });

  it('turns a server error and a malformed body into provider errors that name the provider', async () => {
    for (const [model, kind] of [['always-500', 'http'], ['always-malformed', 'malformed_response']] as const) {
      const failure = await provider().complete(request({ model }), CONTEXT).catch((error: unknown) => error);
      expect(isProviderError(failure), model).toBe(true);
      expect(failure).toMatchObject({ kind });
      expect((failure as Error).message).toContain('openai-responses');
    }
  });

  it('needs OPENAI_API_KEY like the Chat Completions agent', async () => {
    const failure = await createLiveProvider({ kind: 'openai-responses' }, {}).complete(request(), CONTEXT).catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'missing_api_key' });
  });
});
