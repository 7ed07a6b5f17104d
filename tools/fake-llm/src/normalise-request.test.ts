import { describe, expect, it } from 'vitest';
import { normaliseAnthropicRequest, normaliseOpenAiRequest, type NormaliseResult } from './normalise-request.js';

function requestOf(result: NormaliseResult) {
  if (!result.ok) throw new Error(result.message);
  return result.request;
}

describe('normaliseOpenAiRequest', () => {
  it('joins system and developer messages, reads text parts, and names tool results by call id', () => {
    const request = requestOf(
      normaliseOpenAiRequest(
        {
          model: 'gpt-4.1-mini',
          messages: [
            { role: 'system', content: 'You book massages.' },
            { role: 'developer', content: [{ type: 'text', text: 'Be brief.' }] },
            { role: 'user', content: [{ type: 'text', text: 'Habari' }, { type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: 'yako' }] },
            {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'check_availability', arguments: '{"date":"2026-11-28"}' } }],
            },
            { role: 'tool', tool_call_id: 'call_1', content: '{"slots":["10:00"]}' },
          ],
        },
        { 'x-parley-role': 'agent' },
      ),
    );
    expect(request).toEqual({
      api: 'openai',
      model: 'gpt-4.1-mini',
      system: 'You book massages.\nBe brief.',
      headers: { 'x-parley-role': 'agent' },
      messages: [
        { role: 'user', content: 'Habari\nyako', toolCalls: [], toolNames: [] },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_1', name: 'check_availability', arguments: '{"date":"2026-11-28"}' }],
          toolNames: [],
        },
        { role: 'tool', content: '{"slots":["10:00"]}', toolCalls: [], toolNames: ['check_availability'] },
      ],
    });
  });

  it('leaves the tool name empty when no earlier call has the id', () => {
    const request = requestOf(normaliseOpenAiRequest({ model: 'm', messages: [{ role: 'tool', tool_call_id: 'nope', content: 'x' }] }, {}));
    expect(request.messages[0]?.toolNames).toEqual(['']);
  });

  it('refuses a body without messages', () => {
    expect(normaliseOpenAiRequest({ model: 'm' }, {})).toEqual({ ok: false, message: expect.stringContaining('"messages"') });
    expect(normaliseOpenAiRequest('text', {}).ok).toBe(false);
  });
});

describe('normaliseAnthropicRequest', () => {
  it('reads system blocks, tool_use calls and a user message of tool results as role tool', () => {
    const request = requestOf(
      normaliseAnthropicRequest(
        {
          model: 'claude-opus-4-7',
          system: [{ type: 'text', text: 'You book massages.' }],
          messages: [
            { role: 'user', content: 'Habari' },
            {
              role: 'assistant',
              content: [
                { type: 'text', text: 'Let me check.' },
                { type: 'tool_use', id: 'toolu_1', name: 'check_availability', input: { date: '2026-11-28' } },
                { type: 'tool_use', id: 'toolu_2', name: 'get_prices', input: {} },
              ],
            },
            {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"slots":["10:00"]}' },
                { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'KES 3000' }] },
              ],
            },
          ],
        },
        {},
      ),
    );
    expect(request.system).toBe('You book massages.');
    expect(request.messages).toEqual([
      { role: 'user', content: 'Habari', toolCalls: [], toolNames: [] },
      {
        role: 'assistant',
        content: 'Let me check.',
        toolCalls: [
          { id: 'toolu_1', name: 'check_availability', arguments: '{"date":"2026-11-28"}' },
          { id: 'toolu_2', name: 'get_prices', arguments: '{}' },
        ],
        toolNames: [],
      },
      { role: 'tool', content: '{"slots":["10:00"]}\nKES 3000', toolCalls: [], toolNames: ['check_availability', 'get_prices'] },
    ]);
    expect(request.forcedTool).toBeUndefined();
  });

  it('notes the tool a request forces', () => {
    const request = requestOf(
      normaliseAnthropicRequest({ model: 'm', system: 'judge', messages: [], tool_choice: { type: 'tool', name: 'verdict' } }, {}),
    );
    expect(request.forcedTool).toBe('verdict');
    expect(requestOf(normaliseAnthropicRequest({ model: 'm', messages: [], tool_choice: { type: 'auto' } }, {})).forcedTool).toBeUndefined();
  });
});
