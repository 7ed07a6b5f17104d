import * as z from 'zod';
import { toolCallsOf, type ToolCall } from '@parley/core';
import { defineMetric } from './define-metric.js';
import type { Metric, MetricIdentity } from './metric.js';
import { scoredResult } from './metric-result.js';
import { describeScore, meetsThreshold } from './score-threshold.js';
import { alignCalls, type CallPairing, type ExpectedCall } from './tool-call-alignment.js';
import { describeToolCallProblems } from './tool-call-problems.js';

const ExpectedCallSchema = z.union([
  z.string().min(1),
  z.strictObject({ name: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() }),
]);

const ToolCorrectnessParamsSchema = z.strictObject({
  expected: z.array(ExpectedCallSchema),
  mode: z.enum(['default', 'ordered', 'exact']).optional(),
});
export type ToolCorrectnessParams = z.infer<typeof ToolCorrectnessParamsSchema>;

const IDENTITY: MetricIdentity = { name: 'tool_correctness', version: '1.0.0' };
const DEFAULT_THRESHOLD = 0.8;

/**
 * `tool_correctness` (docs/file-formats.md, "Expectations and the deterministic metrics"): the tool
 * calls the agent made over the whole conversation against the expected ones, by position
 * (`default`), in order (`ordered`) or identically (`exact`).
 */
export const toolCorrectnessMetric: Metric<ToolCorrectnessParams> = defineMetric({
  ...IDENTITY,
  kind: 'deterministic',
  params: ToolCorrectnessParamsSchema,
  defaultThreshold: DEFAULT_THRESHOLD,
  evaluate(input, params, threshold) {
    const limit = threshold ?? DEFAULT_THRESHOLD;
    const mode = params.mode ?? 'default';
    const expected = params.expected.map(toExpectedCall);
    const actual = toolCallsOf(input.transcript);
    const { score, pairings } = scoreToolCalls(expected, actual, mode);
    const passed = meetsThreshold(score, limit);
    const problems = describeToolCallProblems(expected, actual, pairings, mode);
    const summary = describeScore(IDENTITY.name, score, limit);
    const reason = problems.length === 0 ? summary : `${summary}: ${joinProblems(problems)}`;
    const matched = new Set(pairings.map((pairing) => pairing.actual_index));
    return scoredResult(IDENTITY, score, limit, passed, reason, {
      mode,
      matches: pairings.map((pairing) => ({
        expected: expected[pairing.expected_index]?.name,
        actual_index: pairing.actual_index,
        similarity: pairing.similarity,
      })),
      unexpected: actual.flatMap((call, index) => (matched.has(index) ? [] : [{ index, name: call.name }])),
      actual: actual.map((call) => call.name),
    });
  },
});

/**
 * The score of a set of actual calls against the expected ones: both empty → 1; expected empty
 * but calls made → 0; otherwise the pairings' similarity sum / expected count (`exact`: 1 only
 * when every position pairs identically and the lengths agree).
 */
export function scoreToolCalls(
  expected: ExpectedCall[],
  actual: ToolCall[],
  mode: 'default' | 'ordered' | 'exact',
): { score: number; pairings: CallPairing[] } {
  if (expected.length === 0) return { score: actual.length === 0 ? 1 : 0, pairings: [] };
  const pairings = alignCalls(expected, actual, mode);
  if (mode === 'exact') {
    const identical = expected.length === actual.length && pairings.every((pairing) => pairing.actual_index !== null && pairing.similarity === 1);
    return { score: identical ? 1 : 0, pairings };
  }
  const total = pairings.reduce((sum, pairing) => sum + pairing.similarity, 0);
  return { score: total / expected.length, pairings };
}

function toExpectedCall(call: ToolCorrectnessParams['expected'][number]): ExpectedCall {
  return typeof call === 'string' ? { name: call } : call;
}

const PROBLEMS_SHOWN = 2;

function joinProblems(problems: string[]): string {
  const shown = problems.slice(0, PROBLEMS_SHOWN).join('; ');
  const hidden = problems.length - PROBLEMS_SHOWN;
  return hidden > 0 ? `${shown} (and ${hidden} more)` : shown;
}
