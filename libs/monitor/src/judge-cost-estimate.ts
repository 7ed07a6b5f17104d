import type { ModelRef } from '@parley/config';
import type { MetricInput } from '@parley/metrics';
import type { JudgeMetric } from '@parley/judge';
import { costOfCall, type ModelPrice } from '@parley/providers';

/** Output tokens a judge writes per assistant message it scores, and for an overall verdict. */
const OUTPUT_TOKENS_PER_MESSAGE = 60;
const OUTPUT_TOKENS_OVERALL = 150;

/**
 * What judging one conversation by one metric should cost, before any call: the judge prompt's
 * length in tokens (4 characters a token) at the judge model's input price, plus the answer's
 * expected length at its output price. Null when the model has no known price. Votes on failing
 * verdicts and the cross-check come on top (the estimate says so).
 */
export function estimateJudgeCost(metric: JudgeMetric, input: MetricInput, params: unknown, model: ModelRef, pricing?: Record<string, ModelPrice>): number | null {
  const task = metric.task(input, params);
  if ('verdict' in task) return 0;
  const inputTokens = Math.ceil((task.system.length + task.user.length + JSON.stringify(task.schema.schema).length) / 4);
  const assistantMessages = input.transcript.turns.filter((turn) => turn.role === 'assistant').length;
  const outputTokens = OUTPUT_TOKENS_OVERALL + OUTPUT_TOKENS_PER_MESSAGE * assistantMessages;
  return costOfCall(model.model, { input_tokens: inputTokens, output_tokens: outputTokens }, pricing);
}
