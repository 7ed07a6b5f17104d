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

describe('votes_on_fail as a panel of judge models', () => {
  beforeAll(async () => {
    await fake.server.close();
    fake = await fakeJudge({
      rules: [
        { when: { model: 'strict-primary' }, reply: verdict(40) },
        { when: { model: 'lenient-a' }, reply: verdict(90) },
        { when: { model: 'lenient-b' }, reply: verdict(85) },
        { when: { model: 'strict-c' }, reply: verdict(30) },
      ],
    });
  });

  async function panelVote(panel: string[]) {
    await fake.reset();
    const primary = { provider: 'openai' as const, model: 'strict-primary' };
    const outcome = await judgeExpectation({
      metric: conversationJudgeMetric,
      params: {},
      threshold: 0.7,
      input: { transcript: BOOKING_TRANSCRIPT, scenario: { id: 's' } },
      model: primary,
      provider: fake.provider(primary),
      votesOnFail: 1 + panel.length,
      panel: panel.map((model) => ({ model: { provider: 'openai' as const, model }, provider: fake.provider({ provider: 'openai', model }) })),
    });
    return { result: judgeResult(conversationJudgeMetric, outcome, 0.7, 'openai:strict-primary'), models: fake.judgeCalls().map((call) => call.model) };
  }

  it('puts a failing verdict to the other models, each once: the majority across models decides', async () => {
    const { result, models } = await panelVote(['lenient-a', 'lenient-b']);
    expect(models).toEqual(['strict-primary', 'lenient-a', 'lenient-b']);
    expect(result).toMatchObject({ passed: true, score: 0.9 });
    expect(result.details?.['votes']).toEqual([
      { score: 0.4, passed: false, model: 'openai:strict-primary' },
      { score: 0.9, passed: true, model: 'openai:lenient-a' },
      { score: 0.85, passed: true, model: 'openai:lenient-b' },
    ]);
  });

  it('stops once the models agree, and an even panel that ties keeps the failing verdict', async () => {
    const agreed = await panelVote(['strict-c', 'lenient-a']);
    expect(agreed.models).toEqual(['strict-primary', 'strict-c']);
    expect(agreed.result.passed).toBe(false);
    const tie = await panelVote(['lenient-a']);
    expect(tie.models).toEqual(['strict-primary', 'lenient-a']);
    expect(tie.result).toMatchObject({ passed: false, score: 0.4 });
  });
});
