import type { MetricResult } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { scenarioStatus, type ScenarioStatusInput, type StatusVerdict } from './scenario-status.js';

function metric(name: string, overrides: Partial<MetricResult> = {}): MetricResult {
  return { metric: name, version: '1.0.0', score: 1, threshold: null, passed: true, reason: `${name} ok`, ...overrides };
}

const forbidden = metric('content_signals', {
  passed: false,
  score: 0,
  reason: 'forbidden "reservation" found in assistant message 3',
});
const lowJudge = metric('conversation_judge', { passed: false, score: 0.5, threshold: 0.7, reason: 'too curt' });
const unusableJudge = metric('conversation_judge', { passed: false, score: null, error: true, reason: 'judge output unusable' });
const missingBaseline = metric('conversation_judge', {
  score: 0.9,
  reason: 'no baseline entry; run parley run --export-baseline baseline.json',
  details: { warn: true },
});

const rows: Array<{ name: string; input: ScenarioStatusInput; expected: StatusVerdict }> = [
  { name: 'no metrics', input: { metrics: [] }, expected: { status: 'pass', reason: 'no expectations' } },
  {
    name: 'all passed',
    input: { metrics: [metric('a'), metric('b')] },
    expected: { status: 'pass', reason: '2 expectations passed' },
  },
  {
    name: 'scenario error outranks everything',
    input: { metrics: [forbidden], error: { message: 'recording miss at turn 2 (agent)' } },
    expected: { status: 'error', reason: 'recording miss at turn 2 (agent)' },
  },
  {
    name: 'null error is no error',
    input: { metrics: [metric('a')], error: null },
    expected: { status: 'pass', reason: '1 expectation passed' },
  },
  {
    name: 'unevaluated metric outranks a failed one',
    input: { metrics: [forbidden, unusableJudge] },
    expected: { status: 'error', reason: 'conversation_judge: judge output unusable' },
  },
  {
    name: 'first failing metric gives the reason',
    input: { metrics: [metric('a'), forbidden, lowJudge] },
    expected: { status: 'fail', reason: 'content_signals: forbidden "reservation" found in assistant message 3' },
  },
  {
    name: 'fail outranks warn',
    input: { metrics: [missingBaseline, lowJudge] },
    expected: { status: 'fail', reason: 'conversation_judge: too curt' },
  },
  {
    name: 'details.warn on a passing metric',
    input: { metrics: [metric('a'), missingBaseline] },
    expected: { status: 'warn', reason: 'conversation_judge: no baseline entry; run parley run --export-baseline baseline.json' },
  },
  {
    name: 'details.warn that is not exactly true is ignored',
    input: { metrics: [metric('a', { details: { warn: 'yes' } })] },
    expected: { status: 'pass', reason: '1 expectation passed' },
  },
  {
    name: 'non-blocking failure only warns',
    input: { metrics: [metric('a'), forbidden], blockingMetrics: [true, false] },
    expected: { status: 'warn', reason: 'content_signals (advisory): forbidden "reservation" found in assistant message 3' },
  },
  {
    name: 'non-blocking unevaluated metric only warns',
    input: { metrics: [unusableJudge], blockingMetrics: [false] },
    expected: { status: 'warn', reason: 'conversation_judge (advisory): judge output unusable' },
  },
  {
    name: 'blocking failure still fails next to a non-blocking one',
    input: { metrics: [forbidden, lowJudge], blockingMetrics: [false, true] },
    expected: { status: 'fail', reason: 'conversation_judge: too curt' },
  },
  {
    name: 'missing blockingMetrics entries are blocking',
    input: { metrics: [metric('a'), forbidden], blockingMetrics: [false] },
    expected: { status: 'fail', reason: 'content_signals: forbidden "reservation" found in assistant message 3' },
  },
];

describe('scenarioStatus', () => {
  it.each(rows)('$name', ({ input, expected }) => {
    expect(scenarioStatus(input)).toEqual(expected);
  });
});
