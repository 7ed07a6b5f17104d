import { describe, expect, it } from 'vitest';
import { normaliseResponsesRequest } from './normalise-responses-request.js';

describe('normaliseResponsesRequest', () => {
  it('reads a plain string input as one user message and instructions as the system prompt', () => {
    const result = normaliseResponsesRequest({ model: 'gpt-5-mini', instructions: 'Be brief.', input: 'Habari' }, {});
    expect(result).toEqual({
      ok: true,
      request: { api: 'openai-responses', model: 'gpt-5-mini', system: 'Be brief.', messages: [{ role: 'user', content: 'Habari', toolCalls: [], toolNames: [] }], headers: {} },
    });
  });

  it('joins function calls to the assistant message before them, names tool outputs by call id, and folds developer messages into the system prompt', () => {
    const result = normaliseResponsesRequest(
      {
        model: 'm',
        input: [
          { role: 'developer', content: [{ type: 'input_text', text: 'Rules.' }] },
          { role: 'user', content: [{ type: 'input_text', text: 'Nataka massage' }] },
          { type: 'function_call', call_id: 'c1', name: 'check_availability', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c1', output: '{"slots":[]}' },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hakuna nafasi.' }] },
          { type: 'function_call', call_id: 'c2', name: 'waitlist', arguments: '{"day":"sat"}' },
        ],
      },
      {},
    );
    if (!result.ok) throw new Error(result.message);
    expect(result.request.system).toBe('Rules.');
    expect(result.request.messages).toEqual([
      { role: 'user', content: 'Nataka massage', toolCalls: [], toolNames: [] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'check_availability', arguments: '{}' }], toolNames: [] },
      { role: 'tool', content: '{"slots":[]}', toolCalls: [], toolNames: ['check_availability'] },
      { role: 'assistant', content: 'Hakuna nafasi.', toolCalls: [{ id: 'c2', name: 'waitlist', arguments: '{"day":"sat"}' }], toolNames: [] },
    ]);
  });

  it('refuses a body without input', () => {
    expect(normaliseResponsesRequest({ model: 'm', messages: [] }, {})).toMatchObject({ ok: false, message: expect.stringContaining('"input"') });
  });
});
