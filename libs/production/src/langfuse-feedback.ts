import { ConfigError } from '@parley/core';
import { LangfuseError, langfuseClient, type LangfuseClient, type LangfuseClientOptions, type LangfuseTarget } from '@parley/langfuse';
import { FEEDBACK_SCORE_NAME, makeFeedback, type Feedback } from './feedback.js';

export interface LangfuseFeedbackOptions extends LangfuseClientOptions {
  /** Only scores at or after this time (`fromTimestamp`). */
  since?: Date;
  /** Scores per page (the API allows at most 100). */
  pageSize?: number;
}

/** A score as either API version describes it; only the fields Parley reads. */
interface ScoreRecord {
  id?: unknown;
  name?: unknown;
  value?: unknown;
  stringValue?: unknown;
  dataType?: unknown;
  comment?: unknown;
  timestamp?: unknown;
  traceId?: unknown;
  sessionId?: unknown;
  subject?: { kind?: unknown; id?: unknown; traceId?: unknown } | null;
}

/**
 * Reads the `user_feedback` scores of a self-hosted Langfuse through its public API. Langfuse v4
 * serves `GET /api/public/v3/scores` (cursor pages) and answers 404 on the older endpoints; older
 * deployments only have `GET /api/public/scores` (numbered pages). The v3 endpoint is tried first
 * and the older one used when it is not there. A score's conversation is its session, else its
 * trace (one trace per conversation, as the agents we read log them).
 *
 * Every problem (unreachable, keys refused, an answer that is not the API's) is a ConfigError
 * naming the URL, never the keys.
 */
export async function fetchLangfuseFeedback(settings: LangfuseTarget, options: LangfuseFeedbackOptions = {}): Promise<Feedback[]> {
  const client = langfuseClient(settings, options);
  const pageSize = Math.min(100, Math.max(1, options.pageSize ?? 100));
  const filters = { name: FEEDBACK_SCORE_NAME, ...(options.since ? { fromTimestamp: options.since.toISOString() } : {}) };
  try {
    return toFeedback(await readScores(client, filters, pageSize));
  } catch (error) {
    // Promote cannot go on without the feedback it was asked to read: exit 2, as for a feedback file.
    if (error instanceof LangfuseError) throw new ConfigError(error.message);
    throw error;
  }
}

async function readScores(client: LangfuseClient, filters: Record<string, string>, pageSize: number): Promise<ScoreRecord[]> {
  const scores: ScoreRecord[] = [];
  const v3 = { ...filters, limit: String(pageSize), fields: 'details,subject' };
  // Langfuse v4 (and v3 from 3.179) serve the v3 scores API; an older deployment answers 404 there.
  const first = await client.find('/api/public/v3/scores', v3);
  if (first !== undefined) {
    for await (const page of client.cursorPages('/api/public/v3/scores', v3, first)) scores.push(...page.filter(isRecord));
    return scores;
  }
  for await (const page of client.pages('/api/public/scores', filters, pageSize)) scores.push(...page.filter(isRecord));
  return scores;
}

function isRecord(value: unknown): value is ScoreRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function toFeedback(scores: readonly ScoreRecord[]): Feedback[] {
  const feedback: Feedback[] = [];
  for (const score of scores) {
    if (score.name !== FEEDBACK_SCORE_NAME) continue;
    const conversationId = conversationOf(score);
    if (conversationId === undefined) continue;
    const raw = typeof score.stringValue === 'string' && score.stringValue !== '' ? score.stringValue : score.value;
    // The older API writes booleans as 0/1, which would read as neutral/positive numbers.
    const typed = score.dataType === 'BOOLEAN' && typeof raw === 'number' ? raw !== 0 : raw;
    const value = typeof typed === 'number' || typeof typed === 'string' || typeof typed === 'boolean' ? typed : null;
    const at = typeof score.timestamp === 'string' ? new Date(score.timestamp) : undefined;
    const traceId = traceOf(score);
    feedback.push(
      makeFeedback({
        conversationId,
        ...(traceId !== undefined ? { traceId } : {}),
        value,
        ...(typeof score.comment === 'string' && score.comment !== '' ? { comment: score.comment } : {}),
        ...(at ? { at } : {}),
        source: `langfuse score ${typeof score.id === 'string' ? score.id : '?'}`,
      }),
    );
  }
  return feedback;
}

function conversationOf(score: ScoreRecord): string | undefined {
  const subject = score.subject;
  if (subject && typeof subject.id === 'string') {
    if (subject.kind === 'observation') return typeof subject.traceId === 'string' ? subject.traceId : undefined;
    if (subject.kind === 'session' || subject.kind === 'trace') return subject.id;
  }
  if (typeof score.sessionId === 'string' && score.sessionId !== '') return score.sessionId;
  if (typeof score.traceId === 'string' && score.traceId !== '') return score.traceId;
  return undefined;
}

function traceOf(score: ScoreRecord): string | undefined {
  const subject = score.subject;
  if (subject?.kind === 'trace' && typeof subject.id === 'string') return subject.id;
  if (subject && typeof subject.traceId === 'string') return subject.traceId;
  return typeof score.traceId === 'string' && score.traceId !== '' ? score.traceId : undefined;
}
