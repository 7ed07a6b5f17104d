import { uuidFromSeed } from '@parley/langfuse';

/** A score of a production conversation judged by `parley monitor`: one per conversation and metric version. */
export function monitorScoreId(conversationId: string, metric: string, metricVersion: string): string {
  return uuidFromSeed(`parley:monitor-score:${conversationId}:${metric}@${metricVersion}`);
}
