import { describe, expect, it } from 'vitest';
import { evaluateExpectation } from './evaluate-expectation.js';
import { regexMetric, RegexParamsSchema } from './regex.js';
import { conversation } from './test-support/transcript-builder.js';

const chat = conversation()
  .user('book me')
  .assistant('Booked: BK-1042.')
  .user('and another')
  .assistant('Booked: BK-1043.')
  .user('thanks')
  .assistant('You are welcome!')
  .input();

function check(params: Record<string, unknown>) {
  return evaluateExpectation(regexMetric, chat, { metric: 'regex', ...params });
}

describe('regex', () => {
  it.each<[string, Record<string, unknown>, boolean, string]>([
    ['any: one message matches', { pattern: 'BK-\\d{4}' }, true, '/BK-\\d{4}/ matched assistant message 1 (turn 1)'],
    ['any: flags apply', { pattern: 'bk-1043', flags: 'i' }, true, '/bk-1043/i matched assistant message 2 (turn 2)'],
    ['any: no message matches', { pattern: 'M-Pesa' }, false, '/M-Pesa/ matched none of the assistant messages (3 messages)'],
    ['any: within a turn', { pattern: 'BK-', turn: 3 }, false, '/BK-/ matched none of the assistant messages of turn 3 (1 message)'],
    ['all: every message matches', { pattern: '\\.|!', match: 'all' }, true, '/\\.|!/ matched all 3 assistant messages'],
    ['all: one does not', { pattern: 'BK-', match: 'all' }, false, '/BK-/ did not match assistant message 3 (turn 3)'],
    ['none: nothing matches', { pattern: 'sorry', flags: 'i', match: 'none' }, true, '/sorry/i matched none of the assistant messages (3 messages)'],
    ['none: a match fails', { pattern: 'BK-\\d+', match: 'none' }, false, '/BK-\\d+/ matched assistant message 1 (turn 1): "BK-1042" (and 1 more)'],
    ['global flag does not carry state between messages', { pattern: 'Booked', flags: 'g', match: 'none' }, false, '/Booked/g matched assistant message 1 (turn 1): "Booked" (and 1 more)'],
  ])('%s', (_, params, passed, reason) => {
    const result = check(params);
    expect(result).toMatchObject({ passed, reason, score: null, threshold: null });
  });

  it('keeps the matched text of each message in details', () => {
    expect(check({ pattern: 'BK-\\d+' }).details).toEqual({
      match: 'any',
      matched: [
        { message_index: 1, assistant_message: 1, turn: 1, text: 'BK-1042' },
        { message_index: 3, assistant_message: 2, turn: 2, text: 'BK-1043' },
      ],
      messages_checked: 3,
    });
  });

  it('fails for a turn without an assistant message', () => {
    expect(check({ pattern: '.', turn: 9 }).reason).toBe('turn 9 has no assistant message (the conversation has 3 user turns)');
  });

  it('makes an invalid pattern a schema error, located at the pattern', () => {
    const parsed = RegexParamsSchema.safeParse({ pattern: '(unclosed' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['pattern']);
    expect(parsed.error?.issues[0]?.message).toMatch(/Invalid regular expression/);
    expect(RegexParamsSchema.safeParse({ pattern: 'ok', flags: 'q' }).success).toBe(false);
  });

  it('turns an invalid pattern into an error result, through the expectation or directly', () => {
    const viaExpectation = check({ pattern: '(unclosed' });
    expect(viaExpectation).toMatchObject({ passed: false, error: true });
    expect(viaExpectation.reason).toMatch(/^regex has invalid parameters: pattern: Invalid regular expression/);
    const direct = regexMetric.evaluate(chat, { pattern: '[', flags: undefined }, null);
    expect(direct).toMatchObject({ passed: false, error: true });
    expect(direct.reason).toMatch(/^regex could not be evaluated: Invalid regular expression/);
  });
});
