import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '@parley/fake-llm';
import { conversationJudgeMetric } from './conversation-judge.js';
import { judgeExpectation, judgeResult } from './judge-expectation.js';
import { ANTHROPIC_JUDGE, BOOKING_TRANSCRIPT, fakeJudge, OPENAI_JUDGE, requestText } from './test-support/judge-fixtures.js';

let fake: Awaited<ReturnType<typeof fakeJudge>>;
let server: FakeLlmServer;

beforeAll(async () => {
  fake = await fakeJudge({
    rules: [
      {
        name: 'judge-booking',
        when: { system: '/"conversation_judge"/', last_user: '/Score these assistant messages: 1, 5\\./' },
        reply: {
          content: {
            message_scores: [
              { message_index: 5, score: 80, reason: 'Confirms the time and gives the booking number.' },
              { message_index: 1, score: 90, reason: 'Warm Swahili welcome, one clear question.' },
            ],
            overall_feedback: 'Friendly and correct; the price was never stated.',
          },
          usage: { input_tokens: 600, output_tokens: 90 },
        },
      },
    ],
  });
  server = fake.server;
});

afterAll(async () => {
  await server.close();
});

const input = { transcript: BOOKING_TRANSCRIPT, scenario: { id: 'spa_sw', language: 'sw' } };

describe('conversation_judge', () => {
  it.each([
    ['OpenAI (json_schema response format)', OPENAI_JUDGE],
    ['Anthropic (forced tool use)', ANTHROPIC_JUDGE],
  ])('scores every assistant message with a reason through %s; score = mean / 100', async (_label, model) => {
    server.resetLog();
    const outcome = await judgeExpectation({
      metric: conversationJudgeMetric,
      params: { criteria: 'Warm, correct, confirms the price before booking.' },
      threshold: 0.7,
      input,
      model,
      provider: fake.provider(model),
      votesOnFail: 1,
    });
    const result = judgeResult(conversationJudgeMetric, outcome, 0.7, `${model.provider}:${model.model}`);
    expect(result).toMatchObject({ metric: 'conversation_judge', version: '1.0.0', score: 0.85, threshold: 0.7, passed: true });
    expect(result.reason).toBe('conversation_judge 0.85 ≥ 0.7 — Friendly and correct; the price was never stated.');
    expect(result.details).toMatchObject({
      message_scores: [
        { message_index: 1, score: 90, reason: 'Warm Swahili welcome, one clear question.' },
        { message_index: 5, score: 80, reason: 'Confirms the time and gives the booking number.' },
      ],
      overall_feedback: 'Friendly and correct; the price was never stated.',
      judge_calls: 1,
    });

    const [call] = fake.judgeCalls();
    const body = call!.body as Record<string, unknown>;
    if (model.provider === 'openai') {
      expect(body['response_format']).toMatchObject({ type: 'json_schema', json_schema: { name: 'conversation_judgement', strict: true } });
    } else {
      expect(body['tool_choice']).toEqual({ type: 'tool', name: 'respond' });
    }
    expect(body['temperature']).toBe(0);
    const text = requestText(call!);
    expect(text).toContain('What this conversation is tested for: Warm, correct, confirms the price before booking.');
    expect(text).toContain('Language of the conversation: Swahili (sw).');
    expect(text).toContain('[3] assistant calls create_booking {\\"time\\":\\"10:00\\"}');
    expect(text).toContain('[4] tool create_booking returned: {\\"booking_id\\":\\"BK-1042\\"}');
  });

  it('fails below the threshold and names the score against it', async () => {
    const outcome = await judgeExpectation({ metric: conversationJudgeMetric, params: {}, threshold: 0.9, input, model: OPENAI_JUDGE, provider: fake.provider(OPENAI_JUDGE), votesOnFail: 1 });
    const result = judgeResult(conversationJudgeMetric, outcome, 0.9, 'openai:gpt-4.1');
    expect(result.passed).toBe(false);
    expect(result.reason).toMatch(/^conversation_judge 0\.85 < 0\.9 — /);
  });

  it('gives 0 without a call when the assistant said nothing', async () => {
    server.resetLog();
    const silent = { transcript: { ended_by: 'script' as const, turns: [{ role: 'user' as const, content: 'Hello?', turn: 1 }] }, scenario: { id: 'silent' } };
    const outcome = await judgeExpectation({ metric: conversationJudgeMetric, params: {}, threshold: 0.7, input: silent, model: OPENAI_JUDGE, provider: fake.provider(OPENAI_JUDGE), votesOnFail: 1 });
    expect(judgeResult(conversationJudgeMetric, outcome, 0.7, 'openai:gpt-4.1')).toMatchObject({ score: 0, passed: false });
    expect(fake.judgeCalls()).toHaveLength(0);
  });

  it('rejects parameters other than criteria', () => {
    expect(conversationJudgeMetric.params.safeParse({ criteria: 'Be kind' }).success).toBe(true);
    expect(conversationJudgeMetric.params.safeParse({ critera: 'typo' }).success).toBe(false);
  });
});
