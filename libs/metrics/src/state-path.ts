import * as z from 'zod';
import { defineMetric } from './define-metric.js';
import type { Metric, MetricIdentity } from './metric.js';
import { verdictResult } from './metric-result.js';

const StatePathParamsSchema = z.strictObject({ expected: z.array(z.string().min(1)).min(1) });
export type StatePathParams = z.infer<typeof StatePathParamsSchema>;

const IDENTITY: MetricIdentity = { name: 'state_path', version: '1.0.0' };

/**
 * `state_path`: the states the agent reported pass through the expected states in order. Other
 * states may come between them (a subsequence), so the expectation names only the transitions
 * that matter.
 */
export const statePathMetric: Metric<StatePathParams> = defineMetric({
  ...IDENTITY,
  kind: 'deterministic',
  params: StatePathParamsSchema,
  defaultThreshold: null,
  evaluate(input, params) {
    const path = reportedStatePath(input.transcript.turns);
    let reached = 0;
    for (const state of path) {
      if (state === params.expected[reached]) reached += 1;
      if (reached === params.expected.length) break;
    }
    const firstMissing = params.expected[reached] ?? null;
    const details = { actual_path: path, expected: params.expected, first_missing: firstMissing };
    const shownPath = path.length === 0 ? 'the agent reported no state' : `path: ${path.join(' → ')}`;
    if (firstMissing === null) return verdictResult(IDENTITY, true, `states reached in order (${shownPath})`, details);
    const previous = params.expected[reached - 1];
    const where = previous === undefined ? 'never reached' : `not reached after ${JSON.stringify(previous)}`;
    return verdictResult(IDENTITY, false, `state ${JSON.stringify(firstMissing)} ${where} (${shownPath})`, details);
  },
});

/** The assistant's reported states in order, a state repeated over consecutive messages kept once. */
function reportedStatePath(turns: ReadonlyArray<{ role: string; state?: string }>): string[] {
  const path: string[] = [];
  for (const message of turns) {
    if (message.role !== 'assistant' || message.state === undefined || message.state === '') continue;
    if (path[path.length - 1] !== message.state) path.push(message.state);
  }
  return path;
}
