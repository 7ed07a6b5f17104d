import { describe, expect, it } from 'vitest';
import { evaluateExpectation } from './evaluate-expectation.js';
import { statePathMetric } from './state-path.js';
import { conversation } from './test-support/transcript-builder.js';

const chat = conversation()
  .user('hi')
  .assistant('hello', { state: 'greeting' })
  .user('massage saturday')
  .assistant('checking', { state: 'collecting' })
  .assistant('10:00 or 14:00?', { state: 'collecting' })
  .user('10:00')
  .assistant('booked', { state: 'confirmed' })
  .user('thanks')
  .assistant('bye')
  .input();

function check(expected: unknown) {
  return evaluateExpectation(statePathMetric, chat, { metric: 'state_path', expected });
}

describe('state_path', () => {
  it.each<[string, string[], boolean, string]>([
    ['the whole path', ['greeting', 'collecting', 'confirmed'], true, 'states reached in order (path: greeting → collecting → confirmed)'],
    ['a subsequence', ['greeting', 'confirmed'], true, 'states reached in order (path: greeting → collecting → confirmed)'],
    ['a state out of order', ['confirmed', 'collecting'], false, 'state "collecting" not reached after "confirmed" (path: greeting → collecting → confirmed)'],
    ['a state never reported', ['paid'], false, 'state "paid" never reached (path: greeting → collecting → confirmed)'],
    ['a repeated state needs a repeated visit', ['collecting', 'collecting'], false, 'state "collecting" not reached after "collecting" (path: greeting → collecting → confirmed)'],
  ])('%s', (_, expected, passed, reason) => {
    expect(check(expected)).toMatchObject({ passed, reason, score: null, threshold: null });
  });

  it('keeps the collapsed path and the first missing state in details', () => {
    expect(check(['greeting', 'paid']).details).toEqual({
      actual_path: ['greeting', 'collecting', 'confirmed'],
      expected: ['greeting', 'paid'],
      first_missing: 'paid',
    });
  });

  it('fails, saying so, when the agent reported no state', () => {
    const stateless = conversation().user('hi').assistant('hello').input();
    expect(evaluateExpectation(statePathMetric, stateless, { metric: 'state_path', expected: ['greeting'] }).reason).toBe(
      'state "greeting" never reached (the agent reported no state)',
    );
  });

  it.each([[[]], ['greeting'], [['']]])('rejects expected %j', (expected) => {
    expect(check(expected).error).toBe(true);
  });
});
