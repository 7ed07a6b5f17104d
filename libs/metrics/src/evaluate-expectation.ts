import type { MetricResult } from '@parley/core';
import type { z } from 'zod';
import type { Metric, MetricInput } from './metric.js';
import { unevaluableResult } from './metric-result.js';

/** The keys every expectation may carry; everything else belongs to the metric. */
const COMMON_KEYS = new Set(['metric', 'threshold', 'gate', 'thresholding']);

/** An expectation as written in a scenario: the metric's name, common keys, the metric's parameters. */
export type ExpectationInput = { metric: string; threshold?: number } & Record<string, unknown>;

/**
 * The metric's own parameters of an expectation (the common keys taken out), ready for the
 * metric's params schema.
 *
 * @example metricParamsOf({ metric: 'max_turns', max: 8, gate: 'advisory' }) → { max: 8 }
 */
export function metricParamsOf(expectation: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(expectation).filter(([key]) => !COMMON_KEYS.has(key)));
}

/**
 * Evaluates one expectation: its parameters are checked against the metric's schema (a mismatch
 * gives a failed result with `error: true` and the schema's complaint), the threshold is the
 * expectation's or else the metric's default, and the metric judges the transcript.
 */
export function evaluateExpectation<Params>(
  metric: Metric<Params>,
  input: MetricInput,
  expectation: ExpectationInput,
): MetricResult {
  const threshold = metric.defaultThreshold === null ? null : (expectation.threshold ?? metric.defaultThreshold);
  const parsed = metric.params.safeParse(metricParamsOf(expectation));
  if (!parsed.success) {
    return unevaluableResult(metric, `${metric.name} has invalid parameters: ${describeIssues(parsed.error)}`, threshold);
  }
  return metric.evaluate(input, parsed.data, threshold);
}

/** `expected.0: Invalid input; mode: Invalid option…` — each issue with the path it concerns. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.map(String).join('.')}: ${issue.message}`))
    .join('; ');
}
