import { describe, expect, it } from 'vitest';
import { parseJsonMessage } from './json-in-message.js';

describe('parseJsonMessage', () => {
  it.each<[string, string, unknown]>([
    ['a bare JSON message', ' {"ok": true}\n', { ok: true }],
    ['a json fenced block with text around it', 'Here you go:\n```json\n{"ok": 1}\n```\nAnything else?', { ok: 1 }],
    ['an untagged fenced block', '```\n[1, 2]\n```', [1, 2]],
    ['a JSON scalar', '42', 42],
  ])('reads %s', (_, content, value) => {
    expect(parseJsonMessage(content)).toEqual({ value });
  });

  it('says why text is not JSON', () => {
    const parsed = parseJsonMessage('Booked for 10:00.');
    expect('error' in parsed && parsed.error).toMatch(/JSON/);
    expect('error' in parseJsonMessage('```json\n{broken\n```')).toBe(true);
  });
});
