import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RubricMetricFile } from '@parley/config';
import { RubricMetricSchema } from '@parley/config';
import { judgeExpectation, judgeResult } from './judge-expectation.js';
import { rubricMetric } from './rubric-metric.js';
import { ANTHROPIC_JUDGE, BOOKING_TRANSCRIPT, fakeJudge, OPENAI_JUDGE, requestText } from './test-support/judge-fixtures.js';

/** The municipal example's shape: required criteria fail the metric, recommended ones only lower the score. */
const SLOT_RUBRIC: RubricMetricFile = RubricMetricSchema.parse({
  name: 'booking_slot_consistency',
  version: '1.2.0',
  scale: { min: 1, max: 5 },
  rubric: 'Score 5 when the slot booked is one the availability tool offered; 1 when it was never offered.',
  applies_to: 'conversation',
  criteria: [
    { id: 'offered_slot', text: 'The booked slot was offered by check_availability', level: 'required' },
    { id: 'confirms_price', text: 'The price is stated before booking', level: 'recommended' },
  ],
});

const TONE_RUBRIC: RubricMetricFile = RubricMetricSchema.parse({
  name: 'single_question',
  version: '1.0.0',
  scale: { min: 0, max: 10 },
  rubric: 'Each message asks at most one question.',
  applies_to: 'each_assistant_message',
  criteria: [
    { id: 'one_question', text: 'Asks at most one question', level: 'required' },
    { id: 'names_next_step', text: 'Says what happens next', level: 'recommended' },
  ],
});

let fake: Awaited<ReturnType<typeof fakeJudge>>;

const criteria = (offered: string, price: string) => [
  { id: 'offered_slot', status: offered, reason: offered === 'met' ? '10:00 was offered.' : '11:00 was never offered.' },
  { id: 'confirms_price', status: price, reason: price === 'met' ? 'KES 3,500 stated.' : 'No price before booking.' },
];

beforeAll(async () => {
  fake = await fakeJudge({
    rules: [
      { name: 'required-unmet', when: { system: '/"booking_slot_consistency"/', model: 'required-unmet' }, reply: { content: { score: 5, reason: 'Polite and quick.', criteria: criteria('not_met', 'met') } } },
      { name: 'recommended-unmet', when: { system: '/"booking_slot_consistency"/', model: 'recommended-unmet' }, reply: { content: { score: 4, reason: 'Right slot, no price.', criteria: criteria('met', 'not_met') } } },
      { name: 'all-met', when: { system: '/"booking_slot_consistency"/' }, reply: { content: { score: 5, reason: 'Right slot and price.', criteria: criteria('met', 'met') } } },
      {
        name: 'per-message',
        when: { system: '/"single_question"/' },
        reply: {
          content: {
            message_scores: [
              { message_index: 1, score: 9, reason: 'One question.', criteria: [{ id: 'one_question', status: 'met', reason: 'One.' }, { id: 'names_next_step', status: 'not_applicable', reason: 'Nothing next yet.' }] },
              { message_index: 5, score: 6, reason: 'Two questions at once.', criteria: [{ id: 'names_next_step', status: 'met', reason: 'Says see you Saturday.' }, { id: 'one_question', status: 'not_met', reason: 'Asks for name and phone together.' }] },
            ],
            overall_feedback: 'Mostly one question at a time.',
          },
        },
      },
    ],
  });
});

afterAll(async () => {
  await fake.server.close();
});

const input = { transcript: BOOKING_TRANSCRIPT, scenario: { id: 'spa_sw', language: 'sw' } };

async function judge(rubric: RubricMetricFile, model = OPENAI_JUDGE, threshold = 0.7) {
  const metric = rubricMetric(rubric);
  const outcome = await judgeExpectation({ metric, params: {}, threshold, input, model, provider: fake.provider(model), votesOnFail: 1 });
  return judgeResult(metric, outcome, threshold, `${model.provider}:${model.model}`);
}

describe('rubric metrics (applies_to: conversation)', () => {
  it('normalises the scale and passes when every criterion is met', async () => {
    const result = await judge(SLOT_RUBRIC, ANTHROPIC_JUDGE);
    expect(result).toMatchObject({ metric: 'booking_slot_consistency', version: '1.2.0', score: 1, passed: true });
    expect(result.details).toMatchObject({
      scale: { min: 1, max: 5 },
      rubric_score: 5,
      criteria: [
        { id: 'offered_slot', level: 'required', status: 'met', reason: '10:00 was offered.' },
        { id: 'confirms_price', level: 'recommended', status: 'met', reason: 'KES 3,500 stated.' },
      ],
    });
  });

  it('fails on a required criterion not met, whatever the score', async () => {
    const result = await judge(SLOT_RUBRIC, { provider: 'openai', model: 'required-unmet' });
    expect(result.score).toBe(1);
    expect(result.passed).toBe(false);
    expect(result.reason).toBe('required criterion "offered_slot" not met (11:00 was never offered); booking_slot_consistency 1 ≥ 0.7 — Polite and quick.');
    expect(result.details?.['unmet_required']).toEqual(['offered_slot']);
  });

  it('passes with a recommended criterion not met, at the lower score the judge gave', async () => {
    const result = await judge(SLOT_RUBRIC, { provider: 'openai', model: 'recommended-unmet' });
    expect(result).toMatchObject({ score: 0.75, passed: true });
    expect(result.details?.['unmet_required']).toBeUndefined();
    expect(result.details?.['criteria']).toContainEqual({ id: 'confirms_price', level: 'recommended', status: 'not_met', reason: 'No price before booking.' });
  });

  it('tells the judge the rubric, the scale and which criteria are required', async () => {
    fake.server.resetLog();
    await judge(SLOT_RUBRIC);
    const text = requestText(fake.judgeCalls()[0]!);
    expect(text).toContain('on a scale from 1 to 5 (5 is best)');
    expect(text).toContain('- offered_slot (required): The booked slot was offered by check_availability');
    expect(text).toContain('- confirms_price (recommended): The price is stated before booking');
    expect(text).toContain('Score 5 when the slot booked is one the availability tool offered');
  });
});

describe('rubric metrics (applies_to: each_assistant_message)', () => {
  it('scores each message, aggregates criteria over messages, and fails a required one unmet in any message', async () => {
    const result = await judge(TONE_RUBRIC);
    expect(result.score).toBeCloseTo((0.9 + 0.6) / 2, 12);
    expect(result.passed).toBe(false);
    expect(result.reason).toMatch(/^required criterion "one_question" not met in message 5 \(Asks for name and phone together\); single_question 0\.75 ≥ 0\.7/);
    expect(result.details?.['criteria']).toEqual([
      { id: 'one_question', level: 'required', status: 'not_met', not_met_in: [5], reason: 'Asks for name and phone together.' },
      { id: 'names_next_step', level: 'recommended', status: 'met' },
    ]);
    const messages = result.details?.['message_scores'] as Array<{ message_index: number; criteria: Array<{ id: string }> }>;
    expect(messages.map((message) => message.message_index)).toEqual([1, 5]);
    // Criteria come back in the rubric's order whatever order the judge wrote them in.
    expect(messages[1]!.criteria.map((criterion) => criterion.id)).toEqual(['one_question', 'names_next_step']);
  });
});
