import type { MetricResult, ScenarioResult } from '@parley/core';

/** What stands in for withheld text, so a reader sees that something was removed and why. */
export const WITHHELD = '[metadata_only: content withheld]';

/**
 * A metric result of a `metadata_only` scenario, safe for any report: scores, thresholds and
 * verdicts stay (they are what CI needs), the reason becomes {@link WITHHELD}, and of the details
 * only top-level numbers and booleans survive. Details such as per-message judge reasons quote
 * the conversation, and a privacy rule that depends on every metric author remembering it would
 * not hold, so everything textual goes.
 */
export function withholdMetricContent(metric: MetricResult): MetricResult {
  const details = metric.details === undefined ? undefined : contentFreeDetails(metric.details);
  return {
    metric: metric.metric,
    version: metric.version,
    score: metric.score,
    threshold: metric.threshold,
    passed: metric.passed,
    reason: WITHHELD,
    ...(details !== undefined ? { details } : {}),
    ...(metric.error !== undefined ? { error: metric.error } : {}),
  };
}

/**
 * A one-line reason for a `metadata_only` scenario that names, at most, the metric (or error
 * kind) responsible: those come from the suite's configuration and code, never from the
 * conversation.
 *
 * @example withheldScenarioReason(failingResult) === 'content_signals: [metadata_only: content withheld]'
 */
export function withheldScenarioReason(result: ScenarioResult): string {
  const { status, metrics } = result;
  if (status === 'error') {
    const unevaluated = metrics.find((metric) => metric.error === true);
    if (unevaluated) return `${unevaluated.metric}: ${WITHHELD}`;
    return result.error ? `${result.error.kind}: ${WITHHELD}` : WITHHELD;
  }
  if (status === 'fail' || status === 'warn') {
    const culprit = metrics.find((metric) => !metric.passed || metric.error === true || metric.details?.['warn'] === true);
    if (culprit) return `${culprit.metric}: ${WITHHELD}`;
  }
  return WITHHELD;
}

function contentFreeDetails(details: Record<string, unknown>): Record<string, number | boolean> | undefined {
  const kept: Record<string, number | boolean> = {};
  for (const [key, value] of Object.entries(details)) {
    if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') kept[key] = value;
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}
