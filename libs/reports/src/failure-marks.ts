import type { MetricResult } from '@parley/core';
import { messageJudgements } from './message-judgements.js';

/** Why one message of a transcript is pointed at: a check that failed on it, or a low judge score. */
export interface MessageMark {
  metric: string;
  kind: 'failed' | 'low-score';
  /** Short: `forbidden "reservation"`, `not valid JSON`, `35/100`. */
  what: string;
}

/** Where a scenario's failures are in its transcript. */
export interface FailureMarks {
  /** By `message_index` (0-based position in `transcript.turns`), in transcript order. */
  byMessage: Map<number, MessageMark[]>;
  /** Failing metrics that point at no single message (a required string missing everywhere, a state never reached). */
  unlocated: string[];
}

/** A message scored below this fraction of its scale counts as low when its metric has no threshold. */
const LOW_SCORE_FRACTION = 0.5;

/**
 * The messages behind a scenario's failing checks and its low-scored messages, read from the
 * metric details the built-in metrics keep: `content_signals` (a forbidden string found),
 * `regex` with `match: none` (a message that matched), `json_schema` (a message that is not
 * valid JSON or breaks the schema), `latency` (the slowest message when it failed), and every
 * per-message judge score below the metric's threshold (below half the scale without one).
 * A failing metric whose details point at no message is listed in `unlocated`.
 *
 * @example failureMarks([forbiddenFound]).byMessage.get(3) // [{ metric: 'content_signals', kind: 'failed', what: 'forbidden "reservation"' }]
 */
export function failureMarks(metrics: readonly MetricResult[]): FailureMarks {
  const byMessage = new Map<number, MessageMark[]>();
  const add = (index: number, mark: MessageMark) => {
    const list = byMessage.get(index);
    if (list === undefined) byMessage.set(index, [mark]);
    else if (!list.some((known) => known.metric === mark.metric && known.what === mark.what)) list.push(mark);
  };
  const unlocated: string[] = [];
  for (const metric of metrics) {
    if (metric.passed) continue;
    const located = failedMessages(metric);
    for (const [index, what] of located) add(index, { metric: metric.metric, kind: 'failed', what });
    if (located.length === 0 && !hasMessageScores(metric)) unlocated.push(metric.metric);
  }
  const thresholds = new Map(metrics.map((metric) => [metric.metric, metric.threshold]));
  for (const [index, judgements] of messageJudgements(metrics)) {
    for (const judgement of judgements) {
      const span = judgement.scale.max - judgement.scale.min;
      const fraction = span > 0 ? (judgement.score - judgement.scale.min) / span : 1;
      const threshold = thresholds.get(judgement.metric) ?? null;
      if (fraction < (threshold ?? LOW_SCORE_FRACTION)) {
        add(index, { metric: judgement.metric, kind: 'low-score', what: `${trim(judgement.score)}/${trim(judgement.scale.max)}` });
      }
    }
  }
  return { byMessage: new Map([...byMessage].sort(([left], [right]) => left - right)), unlocated };
}

/** `[message_index, what]` of each message a failed metric's details point at. */
function failedMessages(metric: MetricResult): Array<[number, string]> {
  const details = metric.details ?? {};
  const out: Array<[number, string]> = [];
  for (const entry of records(details['found_forbidden'])) {
    if (isIndex(entry['message_index'])) out.push([entry['message_index'], `forbidden ${JSON.stringify(String(entry['signal'] ?? ''))}`]);
  }
  if (details['match'] === 'none') {
    for (const entry of records(details['matched'])) if (isIndex(entry['message_index'])) out.push([entry['message_index'], 'matched the pattern']);
  }
  if (metric.metric === 'json_schema') {
    for (const entry of records(details['messages'])) {
      if (!isIndex(entry['message_index'])) continue;
      if (typeof entry['parse_error'] === 'string') out.push([entry['message_index'], 'not valid JSON']);
      else if (Array.isArray(entry['errors']) && entry['errors'].length > 0) out.push([entry['message_index'], 'breaks the schema']);
    }
  }
  const slowest = details['slowest'];
  if (metric.metric === 'latency' && isRecord(slowest) && isIndex(slowest['message_index'])) out.push([slowest['message_index'], 'the slowest answer']);
  return out;
}

function hasMessageScores(metric: MetricResult): boolean {
  return Array.isArray(metric.details?.['message_scores']);
}

function records(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function trim(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/0+$/, '').replace(/\.$/, '');
}
