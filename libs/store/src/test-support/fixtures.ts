import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CostSummary, ScenarioResult, Status } from '@parley/core';
import type { NewRun, RunFinish } from '../run-rows.js';

export function newRun(overrides: Partial<NewRun> = {}): NewRun {
  return {
    id: 'run-2026-11-26-a1b2c3',
    suite: 'ratiba_booking',
    mode: 'replay',
    started_at: '2026-11-26T12:00:00.000Z',
    git_sha: 'abc1234',
    config_fingerprint: 'sha256:feed',
    parley_version: '0.1.0',
    options: { mode: 'replay', concurrency: 4, tag: ['booking'] },
    out_dir: '.parley/runs/run-2026-11-26-a1b2c3',
    ...overrides,
  };
}

export function counts(overrides: Partial<Record<Status, number>> = {}): Record<Status, number> {
  return { pass: 0, fail: 0, warn: 0, flaky: 0, error: 0, skipped: 0, ...overrides };
}

function cost(overrides: Partial<CostSummary> = {}): CostSummary {
  return { input_tokens: 2436, output_tokens: 192, usd: 0.0013, calls: 3, ...overrides };
}

export function runFinish(overrides: Partial<RunFinish> = {}): RunFinish {
  return {
    status: 'fail',
    exit_code: 1,
    finished_at: '2026-11-26T12:01:03.000Z',
    duration_ms: 63_000,
    cost: cost({ usd: 0.0123 }),
    counts: counts({ pass: 1, fail: 1, error: 1 }),
    ...overrides,
  };
}

/** A passing result with a full transcript and every optional field set. */
export function passingResult(scenarioId = 'spa_booking_swahili_happy'): ScenarioResult {
  return {
    scenario_id: scenarioId,
    title: 'Customer books a massage in Swahili',
    agent: 'booking',
    gate: 'blocking',
    tags: ['booking', 'happy-path'],
    language: 'sw',
    metadata_only: false,
    status: 'pass',
    reason: 'all expectations met',
    metrics: [
      { metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: true, reason: 'BK-1042 present' },
      {
        metric: 'conversation_judge',
        version: '1.2.0',
        score: 0.91,
        threshold: 0.7,
        passed: true,
        reason: 'warm and correct',
        details: { message_scores: [{ message_index: 1, score: 91, reason: 'greets in Swahili' }] },
        error: false,
      },
    ],
    transcript: {
      turns: [
        { role: 'user', content: 'Habari! Nataka massage Jumamosi asubuhi.', turn: 1 },
        {
          role: 'assistant',
          content: '',
          turn: 1,
          tool_calls: [{ id: 'call_1', name: 'check_availability', args: { day: 'saturday' } }],
          latency_ms: 420,
          usage: { input_tokens: 812, output_tokens: 64 },
        },
        { role: 'tool', content: '{"slots":["10:00","14:00"]}', turn: 1, tool_name: 'check_availability', tool_mocked: true },
        { role: 'assistant', content: 'Karibu! Saa 10:00 au 14:00?', turn: 1, state: 'choosing_slot' },
      ],
      ended_by: 'goal_reached',
    },
    cost: cost(),
    session: { conversation_id: 'conv-1', tenant: 'test_tenant_spa_booking_swahili_happy_0a1b2c3d' },
  };
}

/** A result that could not be evaluated: no transcript, no metrics, unknown cost. */
export function errorResult(scenarioId = 'refund_request_english'): ScenarioResult {
  return {
    scenario_id: scenarioId,
    agent: 'booking',
    gate: 'advisory',
    tags: [],
    metadata_only: false,
    status: 'error',
    reason: 'recording miss at turn 2 (agent)',
    metrics: [],
    cost: cost({ usd: null, calls: 0, input_tokens: 0, output_tokens: 0 }),
    error: { kind: 'recording_miss', message: 'no recorded call matches', details: '- "temperature": 0.7\n+ "temperature": 0.2' },
  };
}

/** A failing result whose judge metric failed and whose custom metric could not run. */
export function failingResult(scenarioId = 'physio_cancel_sheng'): ScenarioResult {
  const { title: _title, language: _language, session: _session, ...rest } = passingResult(scenarioId);
  return {
    ...rest,
    status: 'fail',
    reason: 'conversation_judge 0.62 is below 0.70',
    metadata_only: true,
    metrics: [
      { metric: 'conversation_judge', version: '1.2.0', score: 0.62, threshold: 0.7, passed: false, reason: 'asks two questions' },
      { metric: 'booking_slot_consistency', version: '2.0.0', score: null, threshold: 1, passed: false, reason: 'judge output unusable', error: true },
      { metric: 'conversation_judge', version: '1.2.0', score: 0.8, threshold: 0.7, passed: true, reason: 'second judge expectation' },
    ],
  };
}

/** A temporary folder removed by the returned function. */
export function temporaryFolder(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'parley-store-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
