import { describe, expect, it } from 'vitest';
import { estimateTokens, requestText, usageFor } from './estimate-usage.js';
import type { NormalisedRequest } from './normalise-request.js';

const request: NormalisedRequest = {
  api: 'openai',
  model: 'm',
  system: 'sys',
  messages: [
    { role: 'user', content: 'hi', toolCalls: [], toolNames: [] },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 't', arguments: '{"a":1}' }], toolNames: [] },
  ],
  headers: {},
};

describe('estimateTokens', () => {
  it('is a quarter of the characters, rounded up, and at least 1', () => {
    expect([estimateTokens(''), estimateTokens('abcd'), estimateTokens('abcde')]).toEqual([1, 1, 2]);
  });
});

describe('usageFor', () => {
  it('counts the system prompt, the messages and the tool arguments of the request', () => {
    expect(requestText(request)).toBe('syshi{"a":1}');
    expect(usageFor(request, { content: 'Karibu!' })).toEqual({ input_tokens: 3, output_tokens: 2 });
  });

  it('keeps each scripted side and estimates the other', () => {
    expect(usageFor(request, { content: 'x', usage: { output_tokens: 50 } })).toEqual({ input_tokens: 3, output_tokens: 50 });
    expect(usageFor(request, { tool_calls: [{ name: 'check', args: { date: '2026-11-28' } }] })).toEqual({ input_tokens: 3, output_tokens: 7 });
  });
});
