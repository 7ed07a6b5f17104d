import { describe, expect, it } from 'vitest';
import type { MetricResult } from '@parley/core';
import { failureMarks } from './failure-marks.js';

const metric = (name: string, passed: boolean, details: Record<string, unknown>, threshold: number | null = null): MetricResult => ({
  metric: name,
  version: '1.0.0',
  score: null,
  threshold,
  passed,
  reason: '',
  details,
});

describe('failureMarks', () => {
  it('points at the messages behind failing checks and at low judge scores, in transcript order', () => {
    const marks = failureMarks([
      metric('content_signals', false, { missing: [], found_forbidden: [{ signal: 'reservation', message_index: 5 }] }),
      metric('regex', false, { match: 'none', matched: [{ message_index: 3, text: '0712' }] }),
      metric('json_schema', false, { messages: [{ message_index: 1, parse_error: 'Unexpected token' }, { message_index: 3, errors: [] }] }),
      metric('latency', false, { slowest: { message_index: 7, turn: 4 } }),
      metric('conversation_judge', true, { message_scores: [{ message_index: 1, score: 95, reason: 'ok' }, { message_index: 3, score: 40, reason: 'curt' }] }, 0.7),
      // Passing checks point at nothing, whatever their details say.
      metric('content_signals', true, { found_forbidden: [{ signal: 'x', message_index: 9 }] }),
    ]);
    expect([...marks.byMessage.keys()]).toEqual([1, 3, 5, 7]);
    expect(marks.byMessage.get(1)).toEqual([{ metric: 'json_schema', kind: 'failed', what: 'not valid JSON' }]);
    expect(marks.byMessage.get(3)).toEqual([
      { metric: 'regex', kind: 'failed', what: 'matched the pattern' },
      { metric: 'conversation_judge', kind: 'low-score', what: '40/100' },
    ]);
    expect(marks.byMessage.get(5)).toEqual([{ metric: 'content_signals', kind: 'failed', what: 'forbidden "reservation"' }]);
    expect(marks.byMessage.get(7)).toEqual([{ metric: 'latency', kind: 'failed', what: 'the slowest answer' }]);
    expect(marks.unlocated).toEqual([]);
  });

  it('lists failures that point at no message; a judge without a threshold counts below half its scale as low', () => {
    const marks = failureMarks([
      metric('content_signals', false, { missing: ['BK-9999'], found_forbidden: [] }),
      metric('state_path', false, { first_missing: 'paid' }),
      metric('fluency_sw', true, { scale: { min: 1, max: 5 }, message_scores: [{ message_index: 1, score: 2, reason: 'stiff' }, { message_index: 3, score: 3, reason: 'fine' }] }),
    ]);
    expect(marks.unlocated).toEqual(['content_signals', 'state_path']);
    expect([...marks.byMessage]).toEqual([[1, [{ metric: 'fluency_sw', kind: 'low-score', what: '2/5' }]]]);
  });
});
