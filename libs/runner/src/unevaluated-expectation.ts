import type { Expectation } from '@parley/config';
import type { MetricResult } from '@parley/core';
import { unevaluableResult } from '@parley/metrics';

/** An expectation the run has no way to evaluate (a judge metric without a judge): an error result that says why. */
export function unevaluatedExpectation(expectation: Expectation, reason: string): MetricResult {
  return unevaluableResult({ name: expectation.metric, version: 'unknown' }, reason, expectation.threshold ?? null);
}
