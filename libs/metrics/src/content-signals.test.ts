import { describe, expect, it } from 'vitest';
import { contentSignalsMetric } from './content-signals.js';
import { evaluateExpectation } from './evaluate-expectation.js';
import { conversation } from './test-support/transcript-builder.js';

const booking = conversation()
  .user('Habari! Nataka massage Jumamosi.')
  .assistant('Karibu! Tuna nafasi saa 10:00 au 14:00.')
  .user('Saa nne tafadhali.')
  .calls({ name: 'create_booking', args: { slot: '10:00' } })
  .assistant('Your reservation BK-1042 is confirmed.\nCall 0800  150\n150 for help.')
  .input();

function check(params: Record<string, unknown>) {
  return evaluateExpectation(contentSignalsMetric, booking, { metric: 'content_signals', ...params });
}

describe('content_signals', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['required present, ignoring case', { required: ['bk-1042'] }, true],
    ['whitespace runs and line breaks collapse', { required: ['0800 150 150'] }, true],
    ['full-width text is normalised (NFKC)', { required: ['ＢＫ－１０４２'] }, true],
    ['required missing', { required: ['M-Pesa'] }, false],
    ['forbidden found', { forbidden: ['Reservation'] }, false],
    ['forbidden absent', { forbidden: ['as an AI language model'] }, true],
    ['turn limits the messages', { required: ['BK-1042'], turn: 1 }, false],
    ['turn 2 has the booking', { required: ['BK-1042'], forbidden: ['nafasi'], turn: 2 }, true],
    ['a signal spanning two messages does not count', { required: ['14:00. your reservation'] }, false],
    ['user messages are not searched', { forbidden: ['massage'] }, true],
  ])('%s', (_, params, passed) => {
    const result = check(params);
    expect(result.passed).toBe(passed);
    expect(result).toMatchObject({ score: null, threshold: null });
    expect(result.error).toBeUndefined();
  });

  it('names the forbidden string and the message it was found in', () => {
    const result = check({ forbidden: ['reservation', 'confirmed'] });
    expect(result.reason).toBe('forbidden "reservation" found in assistant message 2 (turn 2) (and 1 more)');
    expect(result.details).toEqual({
      missing: [],
      found_forbidden: [
        { signal: 'reservation', message_index: 5, assistant_message: 2, turn: 2 },
        { signal: 'confirmed', message_index: 5, assistant_message: 2, turn: 2 },
      ],
      messages_checked: 2,
    });
  });

  it('lists missing strings with the scope that was searched', () => {
    const result = check({ required: ['M-Pesa', 'KES', 'Karibu'], turn: 2 });
    expect(result.reason).toBe('required "M-Pesa", "KES", "Karibu" missing from the assistant messages of turn 2');
    expect(result.details?.['missing']).toEqual(['M-Pesa', 'KES', 'Karibu']);
  });

  it('reports both kinds of problem in one sentence', () => {
    expect(check({ required: ['M-Pesa'], forbidden: ['reservation'] }).reason).toBe(
      'required "M-Pesa" missing from the assistant messages; forbidden "reservation" found in assistant message 2 (turn 2)',
    );
  });

  it('says what held when it passes', () => {
    expect(check({ required: ['BK-1042', 'karibu'], forbidden: ['refund'] }).reason).toBe(
      'all 2 required strings are present and the forbidden string is absent in 2 assistant messages',
    );
  });

  it('fails for a turn the conversation never reached, even with only forbidden strings', () => {
    const result = check({ forbidden: ['reservation'], turn: 5 });
    expect(result.passed).toBe(false);
    expect(result.reason).toBe('turn 5 has no assistant message (the conversation has 2 user turns)');
  });

  it('fails a required string when the assistant never wrote anything', () => {
    const silent = conversation().user('hello').calls({ name: 'lookup', args: {} }).input();
    const result = evaluateExpectation(contentSignalsMetric, silent, { metric: 'content_signals', required: ['hi'] });
    expect(result.passed).toBe(false);
    expect(result.reason).toBe('required "hi" missing: there is no assistant message');
  });

  it.each([[{}], [{ required: [] }], [{ required: ['  '] }], [{ required: 'BK' }], [{ required: ['x'], turn: 0 }], [{ require: ['x'] }]])(
    'rejects parameters %j',
    (params) => {
      const result = check(params);
      expect(result).toMatchObject({ passed: false, error: true });
      expect(result.reason).toMatch(/^content_signals has invalid parameters: /);
    },
  );
});
