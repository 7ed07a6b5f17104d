import { langfuseClient, type LangfuseClient, type LangfuseClientOptions } from './langfuse-client.js';
import type { LangfuseTarget } from './langfuse-target.js';

/**
 * One score as `POST /api/public/scores` takes it (CreateScoreRequest of Langfuse's public API):
 * only the fields the API defines. It has no time field, so a score's time is when Langfuse takes
 * it; what a score is about in time (the run, the conversation) goes in its metadata. Langfuse
 * updates a score sent again under its id.
 */
export interface LangfuseScore {
  id: string;
  traceId?: string;
  sessionId?: string;
  observationId?: string;
  datasetRunId?: string;
  name: string;
  value: number;
  dataType: 'NUMERIC' | 'BOOLEAN';
  comment?: string;
  metadata?: Record<string, unknown>;
  environment?: string;
}

export interface SendScoresOptions extends LangfuseClientOptions {
  /** Scores in flight at once. */
  concurrency?: number;
  /** Called as soon as Langfuse accepted a score (an outbox marks it delivered then). */
  onAccepted?: (score: LangfuseScore) => void;
}

/**
 * Sends scores through the Langfuse client (its retries, timeouts and secret-safe errors), a few
 * at a time. Refused keys are a ConfigError; another failure a LangfuseError. After a failure no
 * further score is started, and the error is thrown once the scores in flight have ended (so
 * onAccepted is never called after this returns).
 */
export async function sendLangfuseScores(target: LangfuseTarget | LangfuseClient, scores: readonly LangfuseScore[], options: SendScoresOptions = {}): Promise<void> {
  const client = 'baseUrl' in target ? langfuseClient(target, options) : target;
  const queue = [...scores];
  let failure: { error: unknown } | undefined;
  const workers = Array.from({ length: Math.min(queue.length, Math.max(1, options.concurrency ?? 8)) }, async () => {
    for (let score = queue.shift(); score !== undefined && failure === undefined; score = queue.shift()) {
      try {
        await client.post('/api/public/scores', score);
      } catch (error) {
        failure ??= { error };
        return;
      }
      options.onAccepted?.(score);
    }
  });
  await Promise.all(workers);
  if (failure !== undefined) throw failure.error;
}
