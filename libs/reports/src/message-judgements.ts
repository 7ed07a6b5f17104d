import type { MetricResult } from '@parley/core';

/** One judge's score and reason for one assistant message. */
export interface MessageJudgement {
  metric: string;
  /** On the metric's own scale (0–100 for `conversation_judge`, the rubric's scale otherwise). */
  score: number;
  scale: { min: number; max: number };
  reason: string;
}

/** `conversation_judge` scores each message 0–100 and keeps no scale in its details (docs/file-formats.md, "Judge metrics"). */
const DEFAULT_SCALE = { min: 0, max: 100 } as const;

/**
 * The per-message verdicts of a scenario's judges, by `message_index` (the message's 0-based
 * position in `transcript.turns`, as the judge was shown it), each message's in the order of the
 * scenario's metrics. Read from every metric whose details keep `message_scores`
 * (`conversation_judge`, per-message rubric metrics, fluency); entries that are not well formed
 * are left out rather than guessed.
 *
 * @example messageJudgements([conversationJudge]).get(3) // [{ metric: 'conversation_judge', score: 95, scale: { min: 0, max: 100 }, reason: '…' }]
 */
export function messageJudgements(metrics: readonly MetricResult[]): Map<number, MessageJudgement[]> {
  const byMessage = new Map<number, MessageJudgement[]>();
  for (const metric of metrics) {
    const scores = metric.details?.['message_scores'];
    if (!Array.isArray(scores)) continue;
    const scale = scaleOf(metric.details?.['scale']);
    for (const entry of scores) {
      if (!isRecord(entry)) continue;
      const { message_index: index, score, reason } = entry;
      if (typeof index !== 'number' || !Number.isInteger(index) || typeof score !== 'number' || typeof reason !== 'string') continue;
      const judgement: MessageJudgement = { metric: metric.metric, score, scale, reason };
      const list = byMessage.get(index);
      if (list === undefined) byMessage.set(index, [judgement]);
      else list.push(judgement);
    }
  }
  return byMessage;
}

function scaleOf(value: unknown): { min: number; max: number } {
  if (isRecord(value) && typeof value['min'] === 'number' && typeof value['max'] === 'number') return { min: value['min'], max: value['max'] };
  return { ...DEFAULT_SCALE };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
