import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonAnswer } from './ask-judge.js';
import { conversationJudgeMetric } from './conversation-judge.js';
import { judgeExpectation, judgeResult } from './judge-expectation.js';
import { ANTHROPIC_JUDGE, BOOKING_TRANSCRIPT, fakeJudge, OPENAI_JUDGE, requestText } from './test-support/judge-fixtures.js';

const GOOD = {
  message_scores: [
    { message_index: 1, score: 70, reason: 'Fine.' },
    { message_index: 5, score: 90, reason: 'Good.' },
  ],
  overall_feedback: 'Good enough.',
};

let fake: Awaited<ReturnType<typeof fakeJudge>>;
beforeAll(async () => {
  fake = await fakeJudge({
    rules: [
      { name: 'garbage-then-ok', when: { model: 'garbage-once' }, replies: [{ content: 'Sure! The assistant did great, 9/10.' }, { content: GOOD }] },
      { name: 'garbage-twice', when: { model: 'garbage-twice' }, replies: [{ content: 'I think 85.' }, { content: '{"message_scores": [' }] },
      {
        name: 'wrong-index-then-ok',
        when: { model: 'wrong-index' },
        replies: [{ content: { message_scores: [{ message_index: 1, score: 70, reason: 'Fine.' }, { message_index: 3, score: 10, reason: 'Tool call.' }], overall_feedback: 'x' } }, { content: GOOD }],
      },
      { name: 'down', when: { model: 'down' }, fault: { kind: 'status', status: 503, message: 'overloaded' } },
    ],
  });
});
afterAll(async () => {
  await fake.server.close();
});

const input = { transcript: BOOKING_TRANSCRIPT, scenario: { id: 'spa_sw' } };

async function judgeWith(model: string, provider: 'openai' | 'anthropic' = 'openai') {
  await fake.reset();
  const ref = { provider, model };
  const outcome = await judgeExpectation({ metric: conversationJudgeMetric, params: {}, threshold: 0.7, input, model: ref, provider: fake.provider(ref), votesOnFail: 1 });
  return { outcome, result: judgeResult(conversationJudgeMetric, outcome, 0.7, `${provider}:${model}`), calls: fake.judgeCalls() };
}

describe('unusable judge output', () => {
  it.each(['openai', 'anthropic'] as const)('is retried once, telling the judge what was wrong (%s)', async (provider) => {
    const { result, calls } = await judgeWith('garbage-once', provider);
    expect(result).toMatchObject({ score: 0.8, passed: true, details: { judge_calls: 2 } });
    expect(calls).toHaveLength(2);
    const retry = requestText(calls[1]!);
    expect(retry).toContain('Sure! The assistant did great, 9/10.');
    expect(retry).toContain('That answer could not be used: the answer is not JSON');
  });

  it('is retried when valid JSON scores the wrong messages', async () => {
    const { result, calls } = await judgeWith('wrong-index');
    expect(result.passed).toBe(true);
    expect(requestText(calls[1]!)).toContain('message_index 3 is not one of the assistant messages to score (1, 5)');
  });

  it('twice gives an error result that keeps both raw outputs', async () => {
    const { result, calls } = await judgeWith('garbage-twice', 'anthropic');
    expect(calls).toHaveLength(2);
    expect(result).toMatchObject({ passed: false, error: true, score: null });
    expect(result.reason).toMatch(/^conversation_judge could not be evaluated: the judge's answer was unusable twice \(the answer is not JSON/);
    expect(result.details).toMatchObject({ raw_outputs: ['I think 85.', '{"message_scores": ['], judge_calls: 2, judge_model: 'anthropic:garbage-twice' });
  });

  it('a provider that keeps failing is an error result naming the failure, never a throw', async () => {
    const { result } = await judgeWith('down');
    expect(result).toMatchObject({ error: true, passed: false, details: { error_kind: 'http' } });
    expect(result.reason).toMatch(/could not be evaluated: the judge call failed: .*overloaded/);
  });
});

describe('parseJsonAnswer', () => {
  it('reads JSON, forgives one Markdown fence, and says why anything else is unusable', () => {
    expect(parseJsonAnswer('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonAnswer('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonAnswer('  ')).toEqual({ ok: false, problem: 'the answer is empty' });
    expect(parseJsonAnswer('Here you go: {"a": 1}')).toMatchObject({ ok: false, problem: expect.stringMatching(/^the answer is not JSON/) });
  });
});

describe('judge model names', () => {
  it('never reach the judge: only roles and content of the conversation do', async () => {
    fake.server.resetLog();
    await judgeExpectation({ metric: conversationJudgeMetric, params: {}, threshold: 0.7, input, model: OPENAI_JUDGE, provider: fake.provider(OPENAI_JUDGE), votesOnFail: 1 }).catch(() => undefined);
    await judgeExpectation({ metric: conversationJudgeMetric, params: {}, threshold: 0.7, input, model: ANTHROPIC_JUDGE, provider: fake.provider(ANTHROPIC_JUDGE), votesOnFail: 1 }).catch(() => undefined);
    for (const call of fake.judgeCalls()) expect(requestText(call)).not.toMatch(/gpt-4\.1-mini|agent|tenant|conversation_id/);
  });
});
