import { describe, expect, it } from 'vitest';
import type { NormalisedRequest } from './normalise-request.js';
import { buildOpenAiCompletion, buildOpenAiError } from './openai-response.js';

const request: NormalisedRequest = {
  api: 'openai',
  model: 'gpt-4.1-mini',
  system: 'abcd', // 4 characters
  messages: [{ role: 'user', content: 'efghi', toolCalls: [], toolNames: [] }], // 5 more: 9 → 3 tokens
  headers: {},
};

describe('buildOpenAiCompletion', () => {
  it('builds a chat.completion with deterministic ids and estimated usage', () => {
    expect(buildOpenAiCompletion({ content: 'Karibu!' }, request, 7)).toEqual({
      id: 'chatcmpl-fake-000007',
      object: 'chat.completion',
      created: 1_767_225_600,
      model: 'gpt-4.1-mini',
      system_fingerprint: 'fp_fake_llm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Karibu!', refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
  });

  it('sends tool calls with JSON-string arguments, null content and finish_reason tool_calls', () => {
    const completion = buildOpenAiCompletion(
      { tool_calls: [{ name: 'check_availability', args: { date: '2026-11-28' } }, { name: 'get_prices', id: 'call_fixed' }] },
      request,
      2,
    );
    expect(completion.choices[0]?.message).toEqual({
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [
        { id: 'call_fake_000002_1', type: 'function', function: { name: 'check_availability', arguments: '{"date":"2026-11-28"}' } },
        { id: 'call_fixed', type: 'function', function: { name: 'get_prices', arguments: '{}' } },
      ],
    });
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('serialises JSON content and honours scripted usage and finish reason', () => {
    const completion = buildOpenAiCompletion(
      { content: { score: 80 }, usage: { input_tokens: 120 }, finish_reason: 'max_tokens' },
      request,
      1,
    );
    expect(completion.choices[0]?.message.content).toBe('{"score":80}');
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.usage).toEqual({ prompt_tokens: 120, completion_tokens: 3, total_tokens: 123 });
  });
});

describe('buildOpenAiError', () => {
  it('uses the envelope and codes of the real API', () => {
    expect(buildOpenAiError(429, 'slow down')).toEqual({
      error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
    expect(buildOpenAiError(503).error).toMatchObject({ type: 'server_error', message: 'Service Unavailable (fake-llm)' });
  });
});
