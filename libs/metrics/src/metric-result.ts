import type { MetricResult } from '@parley/core';
import type { MetricIdentity } from './metric.js';

/** The result of a pass/fail metric: no score, no threshold. */
export function verdictResult(
  metric: MetricIdentity,
  passed: boolean,
  reason: string,
  details?: Record<string, unknown>,
): MetricResult {
  return { metric: metric.name, version: metric.version, score: null, threshold: null, passed, reason, details };
}

/** The result of a scored metric. */
export function scoredResult(
  metric: MetricIdentity,
  score: number,
  threshold: number,
  passed: boolean,
  reason: string,
  details?: Record<string, unknown>,
): MetricResult {
  return { metric: metric.name, version: metric.version, score, threshold, passed, reason, details };
}

/** The metric could not be evaluated (bad parameters, malformed transcript): failed, flagged as error. */
export function unevaluableResult(
  metric: MetricIdentity,
  reason: string,
  threshold: number | null = null,
  details?: Record<string, unknown>,
): MetricResult {
  return {
    metric: metric.name,
    version: metric.version,
    score: null,
    threshold,
    passed: false,
    reason,
    details,
    error: true,
  };
}
