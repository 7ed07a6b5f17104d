import { describe, expect, it } from 'vitest';
import { hashCanonical, type CompletionRequest } from '@parley/core';
import { keyMaterial, requestKey } from './request-key.js';

const base: CompletionRequest = {
  provider: 'openai',
  model: 'gpt-4.1-mini',
  system: 'You book massages.',
  messages: [
    { role: 'user', content: 'Habari' },
    { role: 'assistant', content: '', tool_calls: [{ id: 'call_abc', name: 'check_availability', args: { day: 'sat' } }] },
    { role: 'tool', tool_call_id: 'call_abc', name: 'check_availability', content: '{"slots":["10:00"]}' },
  ],
  temperature: 0,
};

describe('requestKey', () => {
  it('is a sha256 hex digest', () => {
    expect(requestKey(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores provider-assigned tool call ids, so re-recordings keep their keys', () => {
    const renamed: CompletionRequest = {
      ...base,
      messages: [
        base.messages[0]!,
        { role: 'assistant', content: '', tool_calls: [{ id: 'toolu_999', name: 'check_availability', args: { day: 'sat' } }] },
        { role: 'tool', tool_call_id: 'toolu_999', name: 'check_availability', content: '{"slots":["10:00"]}' },
      ],
    };
    expect(requestKey(renamed)).toBe(requestKey(base));
  });

  it('changes with anything that changes the answer', () => {
    const variants: CompletionRequest[] = [
      { ...base, model: 'gpt-4.1' },
      { ...base, provider: 'anthropic' },
      { ...base, system: 'You book haircuts.' },
      { ...base, temperature: 0.7 },
      { ...base, seed: 1 },
      { ...base, messages: [{ role: 'user', content: 'Habari!' }] },
      { ...base, tools: [{ name: 'check_availability', parameters: { type: 'object' } }] },
    ];
    const keys = new Set([requestKey(base), ...variants.map(requestKey)]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it('does not depend on key order inside arguments', () => {
    const reordered: CompletionRequest = {
      ...base,
      messages: [
        base.messages[0]!,
        { role: 'assistant', content: '', tool_calls: [{ id: 'call_abc', name: 'check_availability', args: { day: 'sat' } }] },
        base.messages[2]!,
      ],
    };
    expect(requestKey({ ...reordered, temperature: 0, model: 'gpt-4.1-mini' })).toBe(requestKey(base));
  });
});

describe('requestKey of a growing conversation', () => {
  it('equals the sha256 of the canonical key material for every request, with messages shared between requests', () => {
    const messages: CompletionRequest['messages'] = [];
    const requests: CompletionRequest[] = [];
    for (let turn = 1; turn <= 4; turn += 1) {
      messages.push({ role: 'user', content: `turn ${turn}` });
      requests.push({ ...base, messages: [...messages] });
      messages.push({ role: 'assistant', content: '', tool_calls: [{ id: `sdk_${turn}_a`, name: 'lookup', args: { turn } }, { id: `sdk_${turn}_b`, name: 'book', args: {} }] });
      messages.push({ role: 'tool', tool_call_id: `sdk_${turn}_a`, name: 'lookup', content: '{}' });
      messages.push({ role: 'tool', tool_call_id: `sdk_${turn}_b`, name: 'book', content: '{"ok":true}' });
      requests.push({ ...base, messages: [...messages] });
      messages.push({ role: 'assistant', content: `answer ${turn}` });
    }
    for (const request of requests) {
      expect(requestKey(request)).toBe(hashCanonical(JSON.parse(JSON.stringify(keyMaterial(request))) as unknown));
    }
    // The same message objects in another order get other positions, and other keys.
    const reordered = { ...base, messages: [messages[4]!, messages[1]!, messages[2]!] } as CompletionRequest;
    expect(requestKey(reordered)).toBe(hashCanonical(JSON.parse(JSON.stringify(keyMaterial(reordered))) as unknown));
  });
});
