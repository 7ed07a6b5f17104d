import type { MetricResult } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { messageJudgements } from './message-judgements.js';

const conversationJudge: MetricResult = {
  metric: 'conversation_judge',
  version: '1.0.0',
  score: 0.9,
  threshold: 0.7,
  passed: true,
  reason: 'good',
  details: {
    message_scores: [
      { message_index: 3, score: 95, reason: 'states the price first' },
      { message_index: 7, score: 85, reason: 'explains the deposit' },
    ],
    overall_feedback: 'good',
  },
};
const fluency: MetricResult = {
  metric: 'fluency_sw',
  version: '1.0.0',
  score: 0.94,
  threshold: 0.7,
  passed: true,
  reason: 'idiomatic',
  details: { scale: { min: 1, max: 5 }, message_scores: [{ message_index: 3, score: 5, reason: 'natural Swahili', criteria: [] }] },
};

describe('messageJudgements', () => {
  it('gathers every judge of a message by its transcript index, in the order of the metrics', () => {
    const judgements = messageJudgements([conversationJudge, fluency]);
    expect([...judgements.keys()]).toEqual([3, 7]);
    expect(judgements.get(3)).toEqual([
      { metric: 'conversation_judge', score: 95, scale: { min: 0, max: 100 }, reason: 'states the price first' },
      { metric: 'fluency_sw', score: 5, scale: { min: 1, max: 5 }, reason: 'natural Swahili' },
    ]);
    expect(judgements.get(7)).toEqual([{ metric: 'conversation_judge', score: 85, scale: { min: 0, max: 100 }, reason: 'explains the deposit' }]);
  });

  it('ignores metrics without message scores and entries that are not well formed', () => {
    const odd: MetricResult = {
      ...conversationJudge,
      details: { message_scores: [{ message_index: 'one', score: 1, reason: 'x' }, null, { message_index: 1, score: 50 }, { message_index: 2, score: 40, reason: 'ok' }] },
    };
    const signals: MetricResult = { metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: true, reason: 'present' };
    const judgements = messageJudgements([signals, odd, { ...fluency, details: { message_scores: 'none' } }]);
    expect([...judgements.entries()]).toEqual([[2, [{ metric: 'conversation_judge', score: 40, scale: { min: 0, max: 100 }, reason: 'ok' }]]]);
    expect(messageJudgements([]).size).toBe(0);
  });
});
