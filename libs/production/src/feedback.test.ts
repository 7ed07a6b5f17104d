import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { readConversationLog } from './conversation-log.js';
import { feedbackVerdict, makeFeedback, readFeedbackFile, wantsPromotion } from './feedback.js';
import { sinceCutoff } from './since.js';

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'parley-feedback-')), name);
  writeFileSync(path, text);
  return path;
}

describe('feedback', () => {
  it('marks values it does not know (counted as neutral) so commands can warn', () => {
    const made = (value: number | string | boolean | null) => makeFeedback({ conversationId: 'c', value, source: 'x' });
    expect(['maybe', '7', 7, 'thumbs-down', '💬', 0, -1, null, true].map((value) => [value, made(value).verdict, made(value).unrecognised ?? null])).toEqual([
      ['maybe', 'neutral', '"maybe"'],
      ['7', 'neutral', '"7"'],
      [7, 'positive', '7'],
      ['thumbs-down', 'negative', null],
      ['💬', 'neutral', null],
      [0, 'neutral', null],
      [-1, 'negative', null],
      [null, 'neutral', null],
      [true, 'positive', null],
    ]);
  });

  it.each([
    ['👎', 'negative'],
    ['👎️', 'negative'],
    [-1, 'negative'],
    ['-1', 'negative'],
    ['thumbs_down', 'negative'],
    [false, 'negative'],
    ['👍', 'positive'],
    [1, 'positive'],
    [true, 'positive'],
    ['💬', 'neutral'],
    [0, 'neutral'],
    [null, 'neutral'],
    ['thumbs-down', 'negative'],
    ['Thumbs Up', 'positive'],
  ] as const)('%s is %s', (value, verdict) => {
    expect(feedbackVerdict(value)).toBe(verdict);
  });

  it('asks for promotion on a 👎, or a comment without a 👍', () => {
    const item = (value: string, comment?: string) => makeFeedback({ conversationId: 'c', value, source: 'x', ...(comment ? { comment } : {}) });
    expect(wantsPromotion([item('👎')])).toBe(true);
    expect(wantsPromotion([item('💬', 'the price was wrong')])).toBe(true);
    expect(wantsPromotion([item('💬')])).toBe(false);
    expect(wantsPromotion([item('👍', 'asante sana!')])).toBe(false);
    expect(wantsPromotion([item('👍'), item('👎')])).toBe(true);
  });

  it('reads the WhatsApp-button lines and Langfuse score exports, and skips other scores', () => {
    const path = file(
      'feedback.jsonl',
      [
        '{"conversation_id":"c1","user_feedback":"👎","comment":"wrong price","timestamp":"2026-11-27T09:05:00Z"}',
        '',
        '{"name":"user_feedback","traceId":"t2","value":-1}',
        '{"name":"latency","traceId":"t2","value":3}',
      ].join('\n'),
    );
    expect(readFeedbackFile(path).map((item) => [item.conversation_id, item.verdict, item.comment ?? null, item.source])).toEqual([
      ['c1', 'negative', 'wrong price', `${path}:1`],
      ['t2', 'negative', null, `${path}:3`],
    ]);
  });

  it('reports every bad line of a log or feedback file with its line', () => {
    const logs = file('logs.jsonl', '{"conversation_id":"a","turns":[{"role":"user","content":"hi"}]}\nnot json\n{"conversation_id":"b","turns":[]}\n');
    expect(() => readConversationLog(logs)).toThrow(ConfigError);
    expect(() => readConversationLog(logs)).toThrow(new RegExp(`${logs}:2:1: not valid JSON[^\\n]*\\n${logs}:3:1: not a conversation log entry: turns: `));
    const feedback = file('feedback.jsonl', '{"user_feedback":"👎"}\n');
    expect(() => readFeedbackFile(feedback)).toThrow(`${feedback}:1:1: not a feedback entry: (the line): needs a conversation_id`);
  });
});

describe('sinceCutoff', () => {
  const now = new Date('2026-11-30T12:00:00Z');
  it.each([
    ['7d', '2026-11-23T12:00:00.000Z'],
    ['24h', '2026-11-29T12:00:00.000Z'],
    ['90m', '2026-11-30T10:30:00.000Z'],
    ['2w', '2026-11-16T12:00:00.000Z'],
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T08:00:00Z', '2026-11-01T08:00:00.000Z'],
  ])('%s → %s', (text, expected) => {
    expect(sinceCutoff(text, now).toISOString()).toBe(expected);
  });

  it('refuses anything else', () => {
    expect(() => sinceCutoff('last week', now)).toThrow('--since takes a duration such as 7d, 24h, 90m or 2w, or a date such as 2026-11-01; got "last week"');
  });
});
