import type { MetricResult } from '@parley/core';

/**
 * The metrics that explain a non-pass status: failed, not evaluated, or passed with a warning
 * (`details.warn`, e.g. a missing baseline entry). JUnit bodies and the summary list these, and
 * only these, so a reader of a red run is not sent through the expectations that held.
 */
export function troubledMetrics(metrics: readonly MetricResult[]): MetricResult[] {
  return metrics.filter((metric) => metric.error === true || !metric.passed || metric.details?.['warn'] === true);
}

/** One line about a troubled metric: `conversation_judge@1.0.0 failed (score 0.52, threshold 0.70): too curt`. */
export function describeTroubledMetric(metric: MetricResult): string {
  const verdict = metric.error === true ? 'not evaluated' : metric.passed ? 'warning' : 'failed';
  const numbers = [
    metric.score === null ? '' : `score ${metric.score.toFixed(2)}`,
    metric.threshold === null ? '' : `threshold ${metric.threshold.toFixed(2)}`,
  ].filter((part) => part !== '');
  const scoring = numbers.length > 0 ? ` (${numbers.join(', ')})` : '';
  return `${metric.metric}@${metric.version} ${verdict}${scoring}: ${metric.reason}`;
}
