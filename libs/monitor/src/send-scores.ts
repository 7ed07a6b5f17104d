import type { Clock } from '@parley/core';
import { LangfuseError, sendLangfuseScores, type LangfuseScore, type LangfuseTarget, type SendScoresOptions } from '@parley/langfuse';
import type { LoggedConversation } from '@parley/production';
import { abandonedHere, claimHolder, openOutbox, type MonitorScore, type OutboxEntry } from '@parley/store';
import { monitorScoreId } from './monitor-score-id.js';

/** How long a process may take to send the scores it claimed before another process sends them instead. */
const SENDING_LEASE_MS = 10 * 60_000;

/** What a delivery of pending scores came to. */
export interface ScoreDelivery {
  /** Scores Langfuse accepted now. */
  sent: number;
  /** Scores still pending for this Langfuse (a failure left them for the next run or `--flush`). */
  pending: number;
  /** Scores pending for another Langfuse host (sent when monitor runs with that host again). */
  pending_elsewhere: number;
  /** Why Langfuse did not take them (after the client's retries), or null. */
  error: string | null;
}

/** The outbox destination of a Langfuse: its base URL without credentials (the keys are never stored). */
function langfuseDestination(target: LangfuseTarget): string {
  return `langfuse ${target.baseUrl.replace(/\/\/[^/@]*@/, '//')}`;
}

/**
 * The Langfuse scores of a judged conversation as outbox entries (errors are not sent): saved with
 * the conversation, in its transaction, so a judged conversation never loses its scores.
 */
export function scoreDeliveries(target: LangfuseTarget, suite: string, conversation: LoggedConversation, scores: readonly MonitorScore[], at: string): OutboxEntry[] {
  const destination = langfuseDestination(target);
  return langfuseScores(conversation, scores).map((score) => ({
    kind: 'monitor_score' as const,
    destination,
    item_key: score.id,
    suite,
    payload_json: JSON.stringify(score),
    created_at: at,
  }));
}

/**
 * Sends every score pending for this Langfuse (and not being sent by another process) in the outbox of the store at `storePath`, marking
 * each delivered as soon as Langfuse accepted it. Refused keys stay a ConfigError; any other
 * failure leaves the rest pending and is returned as `error`.
 */
export async function deliverPendingScores(target: LangfuseTarget, storePath: string, clock: Clock, options: SendScoresOptions = {}): Promise<ScoreDelivery> {
  const destination = langfuseDestination(target);
  const outbox = openOutbox(storePath);
  try {
    // Claimed before sending: a monitor job running at the same time sends the others, never these.
    const pending = outbox.claimPending('monitor_score', destination, claimHolder(), clock.now().getTime(), SENDING_LEASE_MS, abandonedHere);
    const elsewhere = outbox.pendingElsewhere('monitor_score', destination);
    let sent = 0;
    const delivered = new Set<string>();
    try {
      await sendLangfuseScores(
        target,
        pending.map((item) => JSON.parse(item.payload_json) as LangfuseScore),
        {
          ...options,
          onAccepted: (score) => {
            outbox.delivered('monitor_score', destination, score.id, clock.now().toISOString());
            delivered.add(score.id);
            sent += 1;
          },
        },
      );
    } catch (error) {
      if (!(error instanceof LangfuseError)) throw error;
      const left = pending.filter((item) => !delivered.has(item.item_key)).map((item) => item.item_key);
      outbox.failed('monitor_score', destination, left, error.message, clock.now().toISOString());
      return { sent, pending: left.length, pending_elsewhere: elsewhere, error: error.message };
    }
    return { sent, pending: 0, pending_elsewhere: elsewhere, error: null };
  } finally {
    outbox.close();
  }
}

/** The conversation's judged metrics as Langfuse scores on its trace (errors are not sent). */
function langfuseScores(conversation: LoggedConversation, scores: readonly MonitorScore[]): LangfuseScore[] {
  return scores
    .filter((score) => !score.error)
    .map((score) => ({
      id: monitorScoreId(conversation.conversation_id, score.metric, score.metric_version),
      traceId: conversation.trace_id ?? conversation.conversation_id,
      name: score.metric,
      value: score.score ?? (score.passed ? 1 : 0),
      dataType: score.score === null ? ('BOOLEAN' as const) : ('NUMERIC' as const),
      comment: score.reason,
      metadata: { passed: score.passed, threshold: score.threshold, metric_version: score.metric_version, judge_model: score.judge_model, source: 'parley monitor' },
    }));
}
