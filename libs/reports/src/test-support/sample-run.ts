import type { MetricResult, ScenarioResult, Transcript } from '@parley/core';
import type { RunInfo } from '../build-report.js';

/** A phrase that appears only in the metadata_only scenario's content: it must reach no report. */
export const SECRET_PHRASE = 'nilipigwa na mume wangu jana usiku';

export const runInfo: RunInfo = {
  run_id: 'run-20260101-abcd1234',
  suite: 'ratiba_booking',
  parley_version: '0.1.0',
  mode: 'replay',
  strict: false,
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:12.345Z',
  duration_ms: 12_345,
  git_sha: '0123456789abcdef0123456789abcdef01234567',
  config_fingerprint: 'sha256:feedface',
};

function metric(name: string, overrides: Partial<MetricResult> = {}): MetricResult {
  return { metric: name, version: '1.0.0', score: 1, threshold: 0.8, passed: true, reason: `${name} held`, ...overrides };
}

function transcript(userText: string, assistantText: string, latencies: number[]): Transcript {
  return {
    ended_by: 'script',
    turns: latencies.flatMap((latency, index) => [
      { role: 'user' as const, content: `${userText} ${index + 1}`, turn: index + 1 },
      { role: 'assistant' as const, content: `${assistantText} ${index + 1}`, turn: index + 1, latency_ms: latency },
    ]),
  };
}

function scenario(id: string, overrides: Partial<ScenarioResult>): ScenarioResult {
  return {
    scenario_id: id,
    agent: 'booking',
    gate: 'blocking',
    tags: ['booking'],
    metadata_only: false,
    status: 'pass',
    reason: '1 expectation passed',
    metrics: [metric('content_signals')],
    transcript: transcript('Habari', 'Karibu', [120, 230]),
    cost: { input_tokens: 100, output_tokens: 50, usd: 0.001, calls: 2 },
    session: { conversation_id: `conv-${id}-a1b2c3`, tenant: `test_tenant_${id}_deadbeef` },
    ...overrides,
  };
}

/** One scenario per status, an advisory failure, and a metadata_only failure, in shuffled order. */
export function sampleResults(): ScenarioResult[] {
  return [
    scenario('warn_missing_baseline', {
      status: 'warn',
      reason: 'conversation_judge: no baseline entry',
      metrics: [metric('conversation_judge', { score: 0.9, reason: 'no baseline entry', details: { warn: true } })],
    }),
    scenario('spa_happy', { title: 'Customer books a massage', language: 'sw' }),
    scenario('forbidden_word', {
      status: 'fail',
      reason: 'content_signals: forbidden "reservation" found in assistant message 3 <&"> | pipe',
      metrics: [
        metric('content_signals', {
          passed: false,
          score: 0,
          threshold: null,
          reason: 'forbidden "reservation" found in assistant message 3 <&"> | pipe',
        }),
        metric('conversation_judge', { score: 0.5, threshold: 0.7, passed: false, reason: 'too curt\nand cold' }),
        metric('tool_correctness'),
      ],
    }),
    scenario('provider_down', {
      status: 'error',
      reason: 'openai: 503 after 3 retries',
      metrics: [],
      transcript: undefined,
      error: { kind: 'provider', message: 'openai: 503 after 3 retries', details: 'attempt 1: 503\nattempt 2: 503\nattempt 3: 503 ]]> ]]>' },
    }),
    scenario('flaky_greeting', { status: 'flaky', reason: '2 of 3 attempts passed' }),
    scenario('budget_stop', { status: 'skipped', reason: 'budget', metrics: [], transcript: undefined, cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 } }),
    scenario('smoke_advisory', {
      gate: 'advisory',
      status: 'fail',
      reason: 'conversation_judge: rambling',
      metrics: [metric('conversation_judge', { score: 0.4, threshold: 0.7, passed: false, reason: 'rambling' })],
    }),
    scenario('gbv_disclosure', {
      title: 'Caller discloses abuse',
      metadata_only: true,
      status: 'fail',
      reason: `content_signals: required "hotline" missing after "${SECRET_PHRASE}"`,
      metrics: [
        metric('content_signals', {
          passed: false,
          score: 0,
          reason: `required "hotline" missing after "${SECRET_PHRASE}"`,
          details: { missing: ['hotline'], quoted: SECRET_PHRASE, matched: 0, warn: false },
        }),
        metric('conversation_judge', {
          score: 0.75,
          reason: `warm reply to "${SECRET_PHRASE}"`,
          details: { message_scores: [{ message_index: 1, score: 75, reason: SECRET_PHRASE }], mean: 75 },
        }),
      ],
      transcript: transcript(SECRET_PHRASE, `Pole sana, ${SECRET_PHRASE}`, [300]),
    }),
    scenario('gbv_replay_miss', {
      metadata_only: true,
      status: 'error',
      reason: `recording miss: closest request differs in "${SECRET_PHRASE}"`,
      metrics: [],
      transcript: undefined,
      error: { kind: 'recording_miss', message: `no recording for "${SECRET_PHRASE}"`, details: `- ${SECRET_PHRASE}\n+ something else` },
    }),
  ];
}
