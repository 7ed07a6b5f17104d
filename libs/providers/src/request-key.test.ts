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

describe('requestKey with every part of a request', () => {
  it('equals the sha256 of the canonical key material when tools, sampling and a response schema are set, also for a shared tools list', () => {
    const tools: NonNullable<CompletionRequest['tools']> = [
      { name: 'check_availability', description: 'Free slots', parameters: { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] } },
      { name: 'book', description: 'Books a slot', parameters: { type: 'object', properties: {} } },
    ];
    const full: CompletionRequest = {
      ...base,
      tools,
      max_tokens: 300,
      seed: 7,
      response_schema: { name: 'verdict', schema: { type: 'object', properties: { verdict: { type: 'string', enum: ['pass', 'fail'] } } } },
    };
    const later: CompletionRequest = { ...full, messages: [...full.messages, { role: 'assistant', content: 'Tuna nafasi.' }] };
    for (const request of [full, later, { ...base, tools }, { ...base, system: undefined }]) {
      expect(requestKey(request)).toBe(hashCanonical(JSON.parse(JSON.stringify(keyMaterial(request))) as unknown));
    }
    expect(requestKey(later)).not.toBe(requestKey(full));
    // A changed copy of the tools list is a different list: it is not answered from the shared one.
    const renamed = { ...full, tools: [{ ...tools[0]!, name: 'check_slots' }, tools[1]!] };
    expect(requestKey(renamed)).not.toBe(requestKey(full));
  });

  it('refuses a request canonical JSON cannot carry, naming where', () => {
    expect(() => requestKey({ ...base, temperature: Number.NaN })).toThrow(/canonicalJson: .*temperature/);
  });
});
