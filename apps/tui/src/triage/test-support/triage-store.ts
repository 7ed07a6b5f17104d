import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetricResult, ScenarioResult, Status, Transcript } from '@parley/core';
import { openStore } from '@parley/store';

/** A run history in a temporary folder for screen tests; `remove()` deletes it. */
export interface TriageStore {
  folder: string;
  storePath: string;
  remove(): void;
}

export const SECRET = 'SECRET-PIN-4242';

const cost = { input_tokens: 100, output_tokens: 20, usd: 0.002, calls: 2 };

export function counts(overrides: Partial<Record<Status, number>> = {}): Record<Status, number> {
  return { pass: 0, fail: 0, warn: 0, flaky: 0, error: 0, skipped: 0, ...overrides };
}

export function bookingTranscript(): Transcript {
  return {
    turns: [
      { role: 'user', content: 'Habari! Nataka massage Jumamosi asubuhi.', turn: 1 },
      { role: 'assistant', content: '', turn: 1, tool_calls: [{ id: 'c1', name: 'check_availability', args: { day: 'saturday' } }] },
      { role: 'tool', content: '{"slots":["10:00","14:00"]}', turn: 1, tool_name: 'check_availability', tool_mocked: true },
      { role: 'assistant', content: 'Karibu! Tuna nafasi saa 10:00 au 14:00. Bei ni KES 3,500.', turn: 1 },
      { role: 'user', content: 'Saa nne tafadhali.', turn: 2 },
      { role: 'assistant', content: 'Nimekuwekea saa 10:00. Namba ya booking ni BK-1042.', turn: 2, state: 'booked' },
    ],
    ended_by: 'script',
  };
}

export function judge(score: number, messages: Array<[index: number, score: number, reason: string]>, extra: Partial<MetricResult> = {}): MetricResult {
  return {
    metric: 'conversation_judge',
    version: '1.0.0',
    score,
    threshold: 0.7,
    passed: score >= 0.7,
    reason: `conversation_judge ${score} — overall fine`,
    details: { message_scores: messages.map(([message_index, messageScore, reason]) => ({ message_index, score: messageScore, reason })), overall_feedback: 'overall fine' },
    ...extra,
  };
}

function scenario(scenario_id: string, status: Status, overrides: Partial<ScenarioResult> = {}): ScenarioResult {
  return {
    scenario_id,
    title: `Scenario ${scenario_id}`,
    agent: 'booking',
    gate: 'blocking',
    tags: [],
    language: 'sw',
    metadata_only: false,
    status,
    reason: `${status} because of ${scenario_id}`,
    metrics: [],
    cost,
    ...overrides,
  };
}

/** The results of the failing run `run-b`, in no particular order (the store sorts by id). */
function failingRunResults(): ScenarioResult[] {
  return [
    scenario('a_happy', 'pass', {
      reason: '3 expectations passed',
      transcript: bookingTranscript(),
      metrics: [judge(0.9, [[3, 92, 'States the price before booking.'], [5, 88, 'Gives the booking number.']])],
    }),
    scenario('b_missing_booking_number', 'fail', {
      reason: 'content_signals: required "BK-9999" not found in the assistant messages',
      transcript: bookingTranscript(),
      metrics: [
        { metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: false, reason: 'required "BK-9999" not found in 3 assistant messages', details: { missing: ['BK-9999'] } },
        {
          ...judge(0.85, [[3, 80, 'Quotes the price, a little curt.'], [5, 90, 'Confirms the slot and the booking number.']]),
          passed: false,
          reason: 'regressed against the baseline: baseline 0.92, current 0.85, delta -0.07 exceeds the allowed drop 0.05 — overall fine',
          details: {
            message_scores: [
              { message_index: 3, score: 80, reason: 'Quotes the price, a little curt.' },
              { message_index: 5, score: 90, reason: 'Confirms the slot and the booking number.' },
            ],
            baseline_score: 0.92,
            baseline_delta: -0.07,
            max_drop: 0.05,
            regression: true,
            below_floor: false,
          },
        },
        { metric: 'tool_correctness', version: '1.0.0', score: 1, threshold: 0.8, passed: true, reason: 'tool_correctness 1 ≥ 0.8', details: { baseline_score: 1, baseline_delta: 0, max_drop: 0.05, regression: false, below_floor: false } },
      ],
    }),
    scenario('c_recording_miss', 'error', {
      reason: 'recording miss at turn 2 (agent)',
      error: { kind: 'recording_miss', message: 'no recorded call matches turn 2', details: '- "temperature": 0.7\n+ "temperature": 0.2' },
    }),
    scenario('d_sometimes', 'flaky', { reason: '2 of 3 attempts passed' }),
    scenario('e_no_baseline', 'warn', {
      reason: 'tool_correctness: no baseline entry',
      metrics: [{ metric: 'tool_correctness', version: '1.0.0', score: 0.9, threshold: 0.8, passed: true, reason: 'no baseline entry for scenario "e_no_baseline", metric "tool_correctness"; create it with: parley run . --export-baseline b.json — tool_correctness 0.9 ≥ 0.8', details: { baseline_missing: true, below_floor: false, warn: true } }],
    }),
    scenario('f_private', 'fail', {
      metadata_only: true,
      agent: 'support',
      reason: `conversation_judge: the agent repeated ${SECRET}`,
      transcript: {
        turns: [
          { role: 'user', content: `My PIN is ${SECRET}, please reset it.`, turn: 1 },
          { role: 'assistant', content: `Sure, your PIN ${SECRET} is reset.`, turn: 1 },
        ],
        ended_by: 'script',
      },
      metrics: [judge(0.2, [[1, 20, `Repeats ${SECRET} back to the customer.`]], { reason: `conversation_judge 0.2 — repeats ${SECRET}`, passed: false })],
    }),
    scenario('g_skipped', 'skipped', { reason: 'budget reached' }),
  ];
}

/**
 * Two runs: `run-a` (older, one passing scenario of agent `support`) and `run-b` (the failing
 * run of {@link failingRunResults}, agents booking and support).
 */
export function createTriageStore(): TriageStore {
  const folder = mkdtempSync(join(tmpdir(), 'parley-triage-'));
  const storePath = join(folder, '.parley', 'parley.db');
  const store = openStore(storePath);
  try {
    store.createRun({ id: 'run-a', suite: 'ratiba', mode: 'replay', started_at: '2026-11-25T09:00:00.000Z', parley_version: '0.1.0', options: {}, out_dir: '.parley/runs/run-a' });
    store.saveScenarioResult('run-a', scenario('support_only', 'pass', { agent: 'support', reason: 'all good' }));
    store.finishRun('run-a', { status: 'pass', exit_code: 0, finished_at: '2026-11-25T09:00:05.000Z', duration_ms: 5_000, cost, counts: counts({ pass: 1 }) });

    const results = failingRunResults();
    store.createRun({ id: 'run-b', suite: 'ratiba', mode: 'live', started_at: '2026-11-26T12:00:00.000Z', git_sha: 'abc1234def', parley_version: '0.1.0', options: {}, out_dir: '.parley/runs/run-b' });
    store.saveScenarioResults('run-b', results);
    store.finishRun('run-b', {
      status: 'fail',
      exit_code: 1,
      finished_at: '2026-11-26T12:01:03.000Z',
      duration_ms: 63_000,
      cost: { ...cost, usd: 0.3634 },
      counts: counts({ pass: 1, fail: 2, error: 1, flaky: 1, warn: 1, skipped: 1 }),
    });
  } finally {
    store.close();
  }
  return { folder, storePath, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** Lines of a frame longer than 80 columns or more than 24 rows: both must be empty. */
export function overflow(frame: string, columns = 80, rows = 24): { wide: string[]; rows: number } {
  const lines = frame.split('\n');
  return { wide: lines.filter((line) => Array.from(line).length > columns), rows: Math.max(0, lines.length - rows) };
}
