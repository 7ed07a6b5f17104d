import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationJudgeMetric } from './conversation-judge.js';
import { judgeExpectation, judgeResult } from './judge-expectation.js';
import { BOOKING_TRANSCRIPT, fakeJudge } from './test-support/judge-fixtures.js';

const verdict = (score: number) => ({
  content: {
    message_scores: [
      { message_index: 1, score, reason: `Scored ${score}.` },
      { message_index: 5, score, reason: `Scored ${score}.` },
    ],
    overall_feedback: `All ${score}.`,
  },
});

let fake: Awaited<ReturnType<typeof fakeJudge>>;
beforeAll(async () => {
  fake = await fakeJudge({
    rules: [
      { when: { model: 'fail-pass-fail' }, replies: [verdict(40), verdict(90), verdict(50)] },
      { when: { model: 'fail-pass-pass' }, replies: [verdict(40), verdict(90), verdict(80)] },
      { when: { model: 'fail-fail' }, replies: [verdict(40), verdict(30), verdict(95)] },
      { when: { model: 'pass' }, reply: verdict(90) },
    ],
  });
});
afterAll(async () => {
  await fake.server.close();
});

async function vote(model: string, votesOnFail: number) {
  await fake.reset();
  const ref = { provider: 'openai' as const, model };
  const outcome = await judgeExpectation({
    metric: conversationJudgeMetric,
    params: {},
    threshold: 0.7,
    input: { transcript: BOOKING_TRANSCRIPT, scenario: { id: 's' } },
    model: ref,
    provider: fake.provider(ref),
    votesOnFail,
  });
  return { result: judgeResult(conversationJudgeMetric, outcome, 0.7, `openai:${model}`), calls: fake.judgeCalls().length };
}

describe('votes_on_fail', () => {
  it('re-asks a failing verdict until a majority of N decides: fail, pass, fail → fail', async () => {
    const { result, calls } = await vote('fail-pass-fail', 3);
    expect(calls).toBe(3);
    expect(result).toMatchObject({ passed: false, score: 0.4 });
    expect(result.details?.['votes']).toEqual([
      { score: 0.4, passed: false },
      { score: 0.9, passed: true },
      { score: 0.5, passed: false },
    ]);
    expect(result.reason).toContain('(majority of 3 votes: 1 pass, 2 fail)');
  });

  it('fail, pass, pass → pass, reporting the first passing verdict', async () => {
    const { result, calls } = await vote('fail-pass-pass', 3);
    expect(calls).toBe(3);
    expect(result).toMatchObject({ passed: true, score: 0.9 });
  });

  it('stops as soon as the majority is reached: fail, fail → fail after 2 calls', async () => {
    const { result, calls } = await vote('fail-fail', 3);
    expect(calls).toBe(2);
    expect(result.passed).toBe(false);
  });

  it('never re-asks a passing verdict, and never re-asks with votes_on_fail 1', async () => {
    expect((await vote('pass', 5)).calls).toBe(1);
    const once = await vote('fail-pass-fail', 1);
    expect(once.calls).toBe(1);
    expect(once.result.details?.['votes']).toBeUndefined();
  });
});
