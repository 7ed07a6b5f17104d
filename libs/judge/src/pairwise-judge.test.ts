import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcript } from '@parley/core';
import { judgePair, summarisePairwise } from './pairwise-judge.js';
import { fakeJudge, requestText } from './test-support/judge-fixtures.js';

const conversation = (reply: string): Transcript => ({
  ended_by: 'script',
  turns: [
    { role: 'user', content: 'Nataka massage Jumamosi.', turn: 1 },
    { role: 'assistant', content: reply, turn: 1 },
  ],
});
const BEFORE = conversation('Sawa.');
const AFTER = conversation('Karibu! Tuna nafasi saa nne na saa tano. Ungependa ipi?');

let fake: Awaited<ReturnType<typeof fakeJudge>>;
beforeAll(async () => {
  fake = await fakeJudge({
    rules: [
      // A fair judge: prefers the helpful reply wherever it is shown.
      { when: { model: 'fair', last_user: '/Conversation A:\\n\\[0\\] user: Nataka massage Jumamosi\\.\\n\\[1\\] assistant: Karibu/' }, reply: { content: { winner: 'A', reason: 'A offers slots.' } } },
      { when: { model: 'fair' }, reply: { content: { winner: 'B', reason: 'B offers slots.' } } },
      // A position-biased judge: always prefers whatever it reads first.
      { when: { model: 'first-is-best' }, reply: { content: { winner: 'A', reason: 'A reads better.' } } },
    ],
  });
});
afterAll(async () => {
  await fake.server.close();
});

async function pair(model: string) {
  await fake.reset();
  const ref = { provider: 'anthropic' as const, model };
  return judgePair({ scenarioId: 'spa', language: 'sw', before: BEFORE, after: AFTER, model: ref, provider: fake.provider(ref) });
}

describe('judgePair', () => {
  it('asks in both orders and calls a win when both agree', async () => {
    const result = await pair('fair');
    expect(result).toEqual({
      scenario_id: 'spa',
      outcome: 'after',
      consistent: true,
      orders: [
        { shown_first: 'before', winner: 'after', reason: 'B offers slots.' },
        { shown_first: 'after', winner: 'after', reason: 'A offers slots.' },
      ],
    });
    const [first, second] = fake.judgeCalls().map(requestText);
    expect(first).toMatch(/Conversation A:\\n\[0\] user: Nataka massage Jumamosi\.\\n\[1\] assistant: Sawa\./);
    expect(second).toMatch(/Conversation A:\\n\[0\] user: Nataka massage Jumamosi\.\\n\[1\] assistant: Karibu!/);
  });

  it('calls a tie when the orders disagree (position bias cancelled)', async () => {
    const result = await pair('first-is-best');
    expect(result).toMatchObject({ outcome: 'tie', consistent: false });
    expect(summarisePairwise([result, await pair('fair')], 'anthropic:x')).toEqual({
      judge_model: 'anthropic:x',
      compared: 2,
      before_wins: 0,
      after_wins: 1,
      ties: 1,
      inconsistent: 1,
      errors: 0,
    });
  });

  it('reports a failed judge call as that scenario\'s error', async () => {
    const result = await pair('unknown-model');
    expect(result).toMatchObject({ scenario_id: 'spa', error: expect.stringContaining('the judge call failed') });
  });
});
