import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rubricContentHash, RubricMetricSchema } from '@parley/config';
import { sha256Hex } from '@parley/core';
import { CONVERSATION_JUDGE_INSTRUCTIONS } from './conversation-judge.js';
import { builtInJudgeMetrics, expectationsWithFluency, judgeMetricCatalog } from './judge-catalog.js';
import { judgeExpectation, judgeResult } from './judge-expectation.js';
import type { JudgeMetric } from './judge-metric.js';
import { PAIRWISE_INSTRUCTIONS, PAIRWISE_VERSION } from './pairwise-judge.js';
import { fluencyEnRubric } from './rubrics/fluency-en.js';
import { fluencyAfRubric } from './rubrics/fluency-af.js';
import { fluencySwRubric } from './rubrics/fluency-sw.js';
import { fluencyZuRubric } from './rubrics/fluency-zu.js';
import { mpesaPaymentSafetyRubric } from './rubrics/mpesa-payment-safety.js';
import { BOOKING_TRANSCRIPT, fakeJudge, requestText } from './test-support/judge-fixtures.js';

/**
 * The built-in judges' versions with the hash of what they ask. A change to a rubric or to the
 * instructions without a version bump fails here: cached verdicts and baselines of the old
 * version would otherwise be mixed with the new wording's.
 */
const PINNED = {
  fluency_en: { version: '1.0.0', sha256: rubricContentHash(fluencyEnRubric) },
  fluency_sw: { version: '1.0.0', sha256: rubricContentHash(fluencySwRubric) },
  fluency_zu: { version: '1.0.0', sha256: rubricContentHash(fluencyZuRubric) },
  fluency_af: { version: '1.0.0', sha256: rubricContentHash(fluencyAfRubric) },
  mpesa_payment_safety: { version: '1.0.0', sha256: rubricContentHash(mpesaPaymentSafetyRubric) },
  conversation_judge: { version: '1.0.0', sha256: sha256Hex(CONVERSATION_JUDGE_INSTRUCTIONS) },
  pairwise: { version: PAIRWISE_VERSION, sha256: sha256Hex(PAIRWISE_INSTRUCTIONS) },
};

const perMessage = (scores: Array<[number, number, string, Record<string, string>]>) => ({
  content: {
    message_scores: scores.map(([message_index, score, reason, statuses]) => ({
      message_index,
      score,
      reason,
      criteria: Object.entries(statuses).map(([id, status]) => ({ id, status, reason: `${id} ${status}` })),
    })),
    overall_feedback: 'Natural Swahili overall.',
  },
});

const SW_MET = { swahili_reply: 'met', idiomatic_register: 'met', conventional_loanwords: 'met', code_switching: 'not_applicable', politeness_register: 'met' };

let fake: Awaited<ReturnType<typeof fakeJudge>>;
beforeAll(async () => {
  fake = await fakeJudge({
    rules: [
      { name: 'sw-english-reply', when: { system: '/"fluency_sw"/', model: 'strict' }, reply: perMessage([[1, 5, 'Natural.', SW_MET], [5, 4, 'Switched to English.', { ...SW_MET, swahili_reply: 'not_met' }]]) },
      { name: 'sw-reservation', when: { system: '/"fluency_sw"/' }, reply: perMessage([[1, 5, 'Natural.', SW_MET], [5, 3, '"Reservation" is not conventional.', { ...SW_MET, conventional_loanwords: 'not_met' }]]) },
      {
        name: 'en',
        when: { system: '/"fluency_en"/' },
        reply: perMessage([[1, 4, 'Clear.', { english_reply: 'met', natural_register: 'met', service_formality: 'met', clear_facts: 'not_applicable' }], [5, 5, 'Clear.', { english_reply: 'met', natural_register: 'met', service_formality: 'met', clear_facts: 'met' }]]),
      },
    ],
  });
});
afterAll(async () => {
  await fake.server.close();
});

const catalog = judgeMetricCatalog([]);

async function judge(name: string, model = 'gpt-4.1') {
  fake.server.resetLog();
  const metric = catalog.get(name)!;
  const ref = { provider: 'openai' as const, model };
  const outcome = await judgeExpectation({ metric, params: {}, threshold: 0.7, input: { transcript: BOOKING_TRANSCRIPT, scenario: { id: 's', language: name.slice(-2) } }, model: ref, provider: fake.provider(ref), votesOnFail: 1 });
  return { result: judgeResult(metric, outcome, 0.7, `openai:${model}`), request: requestText(fake.judgeCalls()[0]!) };
}

describe('built-in fluency metrics', () => {
  it('are valid rubric metric files, each with its own version, judged per assistant message on 1-5', () => {
    for (const rubric of [fluencyEnRubric, fluencySwRubric, fluencyZuRubric, fluencyAfRubric, mpesaPaymentSafetyRubric]) expect(RubricMetricSchema.parse(rubric)).toEqual(rubric);
    expect(builtInJudgeMetrics.map((metric) => `${metric.name}@${metric.version}`)).toEqual([
      'conversation_judge@1.0.0',
      'fluency_en@1.0.0',
      'fluency_sw@1.0.0',
      'fluency_zu@1.0.0',
      'fluency_af@1.0.0',
      'mpesa_payment_safety@1.0.0',
    ]);
  });

  it('pin their versions to what they ask (bump the version when this fails)', () => {
    const actual = Object.fromEntries(
      Object.entries(PINNED).map(([name, pinned]) => [name, { version: name === 'pairwise' ? PAIRWISE_VERSION : catalog.get(name)!.version, sha256: pinned.sha256 }]),
    );
    expect(actual).toEqual({
      fluency_en: { version: '1.0.0', sha256: '95407e7ddec84d034cfdf713ae2164ea4a36db1956784b852a58907b4be8fa0b' },
      fluency_sw: { version: '1.0.0', sha256: '2474dcff3a054596cde8f662bc64b66fe7100018a4a93642e2a3a6fedac47456' },
      fluency_zu: { version: '1.0.0', sha256: '3bb91227b91d5439002cf82144807733adeac3c768955cdcca1862ea1bab57c5' },
      fluency_af: { version: '1.0.0', sha256: 'ca662dfbcacfa89d6f54edaf7b0685ac4631574725c87ebd5836e98a58d63ea5' },
      mpesa_payment_safety: { version: '1.0.0', sha256: '4dc66ce9d48ad3b947e92963929472dad5e379d70b4442212a523ca17890ac75' },
      conversation_judge: { version: '1.0.0', sha256: '6f1b581da034154a7134a8fbbdf758c35445d2dea2950ea60802162076b030b3' },
      pairwise: { version: '1.0.0', sha256: '009196e07387cf7decceeebfc5eb375d2036be36f8590f990c290713cc7e5792' },
    });
  });

  it('fluency_sw asks about register, loanwords, code-switching and politeness, and passes a "reservation" slip as recommended only', async () => {
    const { result, request } = await judge('fluency_sw');
    for (const phrase of ['samahani', 'pole', 'reservation', 'code-switching', 'swahili_reply (required)', 'conventional_loanwords (recommended)']) expect(request).toContain(phrase);
    expect(result.score).toBeCloseTo((1 + 0.5) / 2, 12);
    expect(result.passed).toBe(true);
    expect(result.details?.['criteria']).toContainEqual({ id: 'conventional_loanwords', level: 'recommended', status: 'not_met', not_met_in: [5], reason: 'conventional_loanwords not_met' });
    expect(result.details?.['criteria']).toContainEqual({ id: 'code_switching', level: 'recommended', status: 'not_applicable' });
  });

  it('fluency_sw fails a reply that leaves Swahili (its required criterion), whatever the score', async () => {
    const { result } = await judge('fluency_sw', 'strict');
    expect(result.score).toBeCloseTo((1 + 0.75) / 2, 12);
    expect(result.passed).toBe(false);
    expect(result.reason).toMatch(/^required criterion "swahili_reply" not met in message 5/);
  });

  it('fluency_en judges English with its own rubric', async () => {
    const { result, request } = await judge('fluency_en');
    expect(request).toContain('the metric \\"fluency_en\\"');
    expect(request).not.toContain('samahani');
    expect(result).toMatchObject({ metric: 'fluency_en', version: '1.0.0', passed: true });
    expect(result.score).toBeCloseTo((0.75 + 1) / 2, 12);
  });
});

describe('mpesa_payment_safety', () => {
  it('asks about secrets, confirmed payments and amounts, and fails a conversation that claims an unconfirmed payment', async () => {
    fake.server.resetLog();
    fake.server.setScript({
      rules: [
        {
          when: { system: '/"mpesa_payment_safety"/' },
          reply: {
            content: {
              score: 2,
              criteria: [
                { id: 'no_secret_requested', status: 'met', reason: 'No PIN asked.' },
                { id: 'confirmed_before_claimed', status: 'not_met', reason: 'Said "paid" before any receipt.' },
                { id: 'amount_confirmed_first', status: 'met', reason: 'KES 2,500 stated.' },
                { id: 'failure_handled', status: 'not_applicable', reason: 'No failure.' },
              ],
              reason: 'Claims the payment before confirmation.',
            },
          },
        },
      ],
    });
    const metric = catalog.get('mpesa_payment_safety')!;
    const ref = { provider: 'openai' as const, model: 'gpt-4.1' };
    const outcome = await judgeExpectation({ metric, params: {}, threshold: 0.7, input: { transcript: BOOKING_TRANSCRIPT, scenario: { id: 's' } }, model: ref, provider: fake.provider(ref), votesOnFail: 1 });
    const result = judgeResult(metric, outcome, 0.7, 'openai:gpt-4.1');
    const request = requestText(fake.judgeCalls()[0]!);
    for (const phrase of ['PIN', 'no_secret_requested (required)', 'confirmed_before_claimed (required)', 'KES']) expect(request).toContain(phrase);
    expect(result.passed).toBe(false);
    expect(result.reason).toMatch(/required criterion "confirmed_before_claimed" not met/);
  });
});

describe('expectationsWithFluency', () => {
  const known = catalog as ReadonlyMap<string, JudgeMetric>;
  it("attaches fluency_<language> when the suite has a judge and the language's metric exists", () => {
    expect(expectationsWithFluency([{ metric: 'content_signals', required: ['x'] }], 'sw', known, true)).toEqual([
      { metric: 'content_signals', required: ['x'] },
      { metric: 'fluency_sw' },
    ]);
  });
  it('keeps an explicit one (with its threshold) and adds nothing without a judge, a language or a metric for it', () => {
    expect(expectationsWithFluency([{ metric: 'fluency_sw', threshold: 0.9 }], 'sw', known, true)).toEqual([{ metric: 'fluency_sw', threshold: 0.9 }]);
    expect(expectationsWithFluency([], 'sw', known, false)).toEqual([]);
    expect(expectationsWithFluency([], undefined, known, true)).toEqual([]);
    expect(expectationsWithFluency([], 'xh', known, true)).toEqual([]);
  });
  it('attaches the built-in isiZulu and Afrikaans rubrics', () => {
    expect(expectationsWithFluency([], 'zu', known, true)).toEqual([{ metric: 'fluency_zu' }]);
    expect(expectationsWithFluency([], 'af', known, true)).toEqual([{ metric: 'fluency_af' }]);
  });
  it("attaches a suite's own fluency_<lang> rubric the same way", () => {
    const withXhosa = judgeMetricCatalog([
      { file: 'metrics/fluency_xh.yaml', rubricSha256: 'x', data: { ...fluencyEnRubric, name: 'fluency_xh', language: 'xh' } },
    ]);
    expect(expectationsWithFluency([], 'xh', withXhosa, true)).toEqual([{ metric: 'fluency_xh' }]);
  });
  it('attaches the suite rubric that replaces a built-in one, under its own name, instead of the built-in', () => {
    const southAfrican = judgeMetricCatalog([
      { file: 'metrics/fluency_en_za.yaml', rubricSha256: 'x', data: { ...fluencyEnRubric, name: 'fluency_en_za', replaces: 'fluency_en' } },
    ]);
    expect(expectationsWithFluency([], 'en', southAfrican, true)).toEqual([{ metric: 'fluency_en_za' }]);
    expect(expectationsWithFluency([], 'sw', southAfrican, true)).toEqual([{ metric: 'fluency_sw' }]);
  });
});
