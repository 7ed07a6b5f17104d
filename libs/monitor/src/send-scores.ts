import { ConfigError } from '@parley/core';
import { LangfuseError, sendLangfuseScores, type LangfuseScore } from '@parley/langfuse';
import type { LoggedConversation } from '@parley/production';
import type { MonitorScore } from '@parley/store';
import type { JudgedWindow } from './judge-conversations.js';
import type { MonitorInput } from './monitor-outcome.js';
import { monitorScoreId } from './monitor-score-id.js';

/** The send phase: the judged scores go to Langfuse when a target is given; returns how many were sent. */
export async function sendScores(input: MonitorInput, judged: JudgedWindow): Promise<number> {
  if (!input.langfuse) return 0;
  const scores = judged.scored.flatMap(({ conversation, scores }) => langfuseScores(conversation, scores));
  if (scores.length === 0) return 0;
  try {
    await sendLangfuseScores(input.langfuse, scores, input.langfuseOptions);
  } catch (error) {
    // The scores are stored already; Langfuse not taking them after the retries is said as a configuration problem, as reading does.
    if (error instanceof LangfuseError) throw new ConfigError(`pushing scores to Langfuse failed: ${error.message}`);
    throw error;
  }
  return scores.length;
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
