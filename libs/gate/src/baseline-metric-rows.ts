import type { MetricResult } from '@parley/core';

/** What a metric's line in a triage table says about it. */
type MetricVerdict = 'pass' | 'fail' | 'warn' | 'error';

/** One metric of a scenario against the baseline, as the triage screen's metric table shows it. */
export interface BaselineMetricRow {
  /** 1-based: the metric's place among the scenario's results (its expectation's, defaults first). */
  position: number;
  metric: string;
  version: string;
  /** In [0, 1]; null for metrics that only pass or fail. */
  score: number | null;
  /** The baseline's score for this metric; null when it has none or the metric is not scored. */
  baseline: number | null;
  /** score − baseline; null when either is missing. */
  delta: number | null;
  /** The metric's own threshold. */
  threshold: number | null;
  /** The drop below the baseline that still passes (relative thresholding); null when not gated. */
  max_drop: number | null;
  min_floor: number | null;
  /** A scored metric had no baseline entry (it warns, or fails under `--strict`). */
  baseline_missing: boolean;
  /** It dropped more than `max_drop` below the baseline. */
  regression: boolean;
  below_floor: boolean;
  verdict: MetricVerdict;
  reason: string;
}

/**
 * The rows of a scenario's metric table against the baseline, in the order of its expectations.
 * Reads what {@link gateAgainstBaseline} left in each metric's details (`baseline_score`,
 * `baseline_delta`, `max_drop`, `min_floor`, `regression`, `below_floor`, `baseline_missing`,
 * `warn`); a run without `--baseline` simply has no baseline column values.
 *
 * The verdict: `error` when the metric could not be evaluated, `fail` when it did not pass, `warn`
 * when it passed with a warning (a missing baseline entry), else `pass`.
 *
 * @example baselineMetricRows([judged])[0] // { metric: 'conversation_judge', score: 0.86, baseline: 0.91, delta: -0.05, verdict: 'fail', … }
 */
export function baselineMetricRows(metrics: readonly MetricResult[]): BaselineMetricRow[] {
  return metrics.map((metric, index) => {
    const details = metric.details ?? {};
    const baseline = numberOr(details['baseline_score'], null);
    const recordedDelta = numberOr(details['baseline_delta'], null);
    const delta = recordedDelta ?? (metric.score !== null && baseline !== null ? metric.score - baseline : null);
    return {
      position: index + 1,
      metric: metric.metric,
      version: metric.version,
      score: metric.score,
      baseline,
      delta,
      threshold: metric.threshold,
      max_drop: numberOr(details['max_drop'], null),
      min_floor: numberOr(details['min_floor'], null),
      baseline_missing: details['baseline_missing'] === true,
      regression: details['regression'] === true,
      below_floor: details['below_floor'] === true,
      verdict: verdictOf(metric),
      reason: metric.reason,
    };
  });
}

function verdictOf(metric: MetricResult): MetricVerdict {
  if (metric.error === true) return 'error';
  if (!metric.passed) return 'fail';
  if (metric.details?.['warn'] === true) return 'warn';
  return 'pass';
}

function numberOr<Fallback>(value: unknown, fallback: Fallback): number | Fallback {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

const VERDICT_RANK: Record<MetricVerdict, number> = { error: 0, fail: 1, warn: 2, pass: 3 };

/**
 * The rows a person triaging a scenario reads first on top: metrics that could not be evaluated,
 * then failures, then warnings, then passes; within each, the order of the expectations. Returns a
 * new array.
 */
export function metricRowsInTriageOrder(rows: readonly BaselineMetricRow[]): BaselineMetricRow[] {
  return [...rows].sort((left, right) => VERDICT_RANK[left.verdict] - VERDICT_RANK[right.verdict] || left.position - right.position);
}
