import type { RecordingEntry } from '@parley/config';
import { describe, expect, it } from 'vitest';
import { redactRecordingEntries } from './redact-recording.js';
import { keyMaterial, materialKey } from './request-key.js';

const mask = (text: string): string => text.replaceAll('sk-secret', '<secret>');

function entry(messages: Array<Record<string, unknown>>): RecordingEntry {
  const request = keyMaterial({ provider: 'openai', model: 'gpt-4.1-mini', messages: messages as never });
  return {
    v: 1,
    role: 'agent',
    key: materialKey(request),
    provider: 'openai',
    model: 'gpt-4.1-mini',
    request,
    response: { content: 'Done.', tool_calls: [{ id: 'call_1', name: 'lookup', args: { token: 'sk-secret', day: 'Monday' } }], finish_reason: 'stop', model: 'gpt-4.1-mini' },
    usage: { input_tokens: 1, output_tokens: 1 },
    latency_ms: 1,
    recorded_at: '2026-01-01T00:00:00.000Z',
  };
}

describe('redactRecordingEntries', () => {
  it('returns an entry without a secret as the same object', () => {
    const clean = { ...entry([{ role: 'user', content: 'Hello' }]), response: { content: 'Hi', tool_calls: [], finish_reason: 'stop', model: 'm' } };
    const [same] = redactRecordingEntries([clean], mask);
    expect(same).toBe(clean);
  });

  it('copies only what holds a secret, keeping key order, the unchanged parts and a __proto__ key', () => {
    const first = { role: 'user', content: 'Hello' };
    const withSecret = JSON.parse('{"role":"user","content":"my key is sk-secret","__proto__":"kept","after":"x"}') as Record<string, unknown>;
    const last = { role: 'user', content: 'Bye' };
    const original = entry([first, withSecret, last]);
    const [redacted] = redactRecordingEntries([original], mask);
    const messages = redacted!.request['messages'] as Array<Record<string, unknown>>;
    expect(messages[0]).toBe(first);
    expect(messages[2]).toBe(last);
    expect(Object.keys(messages[1]!)).toEqual(['role', 'content', '__proto__', 'after']);
    expect(messages[1]).toEqual(JSON.parse('{"role":"user","content":"my key is <secret>","__proto__":"kept","after":"x"}'));
    expect(Object.getPrototypeOf(messages[1])).toBe(Object.prototype);
    expect(redacted!.key).toBe(materialKey(redacted!.request));
    expect(redacted!.key).not.toBe(original.key);
    expect(redacted!.response.tool_calls[0]!.args).toEqual({ token: '<secret>', day: 'Monday' });
    expect(original.response.tool_calls[0]!.args).toEqual({ token: 'sk-secret', day: 'Monday' });
  });
});
