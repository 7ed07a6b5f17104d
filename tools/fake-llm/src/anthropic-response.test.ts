import { describe, expect, it } from 'vitest';
import { buildAnthropicError, buildAnthropicMessage } from './anthropic-response.js';
import type { NormalisedRequest } from './normalise-request.js';

const request: NormalisedRequest = {
  api: 'anthropic',
  model: 'claude-opus-4-7',
  system: '',
  messages: [{ role: 'user', content: 'Habari', toolCalls: [], toolNames: [] }],
  headers: {},
};

describe('buildAnthropicMessage', () => {
  it('reports scripted cache reads and writes apart from input_tokens, only for a request with cache_control', () => {
    const usage = { input_tokens: 5000, output_tokens: 20, cached_input_tokens: 1000, cache_write_input_tokens: 3000 };
    expect(buildAnthropicMessage({ content: 'ok', usage }, { ...request, cacheControl: true }, 1).usage).toEqual({
      input_tokens: 1000,
      output_tokens: 20,
      cache_creation_input_tokens: 3000,
      cache_read_input_tokens: 1000,
    });
    expect(buildAnthropicMessage({ content: 'ok', usage }, request, 1).usage).toEqual({ input_tokens: 5000, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it('builds a message with text and tool_use blocks', () => {
    expect(
      buildAnthropicMessage(
        { content: 'Let me check.', tool_calls: [{ name: 'check_availability', args: { date: '2026-11-28' } }], usage: { output_tokens: 18 } },
        request,
        3,
      ),
    ).toEqual({
      id: 'msg_fake_000003',
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-7',
      content: [
        { type: 'text', text: 'Let me check.', citations: null },
        { type: 'tool_use', id: 'toolu_fake_000003_1', name: 'check_availability', input: { date: '2026-11-28' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 2, output_tokens: 18, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it('turns JSON content into the input of a forced tool', () => {
    const forced = { ...request, forcedTool: 'verdict' };
    const fromString = buildAnthropicMessage({ content: '{"score": 80, "reason": "warm"}' }, forced, 1);
    expect(fromString.content).toEqual([{ type: 'tool_use', id: 'toolu_fake_000001_1', name: 'verdict', input: { score: 80, reason: 'warm' } }]);
    expect(fromString.stop_reason).toBe('tool_use');
    expect(buildAnthropicMessage({ content: { score: 10 } }, forced, 1).content[0]).toMatchObject({ name: 'verdict', input: { score: 10 } });
  });

  it('keeps content that is not a JSON object as text even when a tool is forced', () => {
    const message = buildAnthropicMessage({ content: 'I refuse to answer in JSON' }, { ...request, forcedTool: 'verdict' }, 1);
    expect(message.content).toEqual([{ type: 'text', text: 'I refuse to answer in JSON', citations: null }]);
    expect(message.stop_reason).toBe('end_turn');
  });

  it('sends one empty text block for an empty reply and translates finish reasons', () => {
    const message = buildAnthropicMessage({ content: '', finish_reason: 'length' }, request, 1);
    expect(message.content).toEqual([{ type: 'text', text: '', citations: null }]);
    expect(message.stop_reason).toBe('max_tokens');
  });
});

describe('buildAnthropicError', () => {
  it('uses the envelope and error types of the real API', () => {
    expect(buildAnthropicError(429, 'req_fake_000001', 'slow down')).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
      request_id: 'req_fake_000001',
    });
    expect(buildAnthropicError(500, 'r').error.type).toBe('api_error');
    expect(buildAnthropicError(529, 'r').error.type).toBe('overloaded_error');
    expect(buildAnthropicError(400, 'r').error.type).toBe('invalid_request_error');
  });
});
