import type { Thresholding } from '@parley/config';
import type { MetricResult } from '@parley/core';
import type { BaselineIndex } from './baseline-index.js';
import { metricKeys } from './metric-keys.js';
import { formatDelta, formatScore } from './score-text.js';
import { resolveThresholding, type ResolvedThresholding } from './thresholding.js';

/** Sums of similarities and means are floating point: a drop exactly at the limit must pass. */
const TOLERANCE = 1e-9;

export interface BaselineGateInput {
  scenarioId: string;
  /** The scenario's metric results, in the order of its expectations. */
  metrics: readonly MetricResult[];
  /** Per metric (same index): its expectation's own `thresholding`, if any. */
  overrides: readonly (Thresholding | undefined)[];
  /** `settings.thresholding` of the suite. */
  suiteDefault?: Thresholding;
  baseline: BaselineIndex;
  /** `--strict`: a missing baseline entry fails instead of warning. */
  strict: boolean;
  /** The exact command that writes a baseline with the missing entry, quoted in the warning. */
  createCommand: string;
}

/**
 * Judges a scenario's scored metrics against a baseline (docs/gating.md, "Baselines"). Metrics without a
 * numeric score (pass/fail metrics, unevaluated ones) are returned unchanged: they keep their own
 * verdict. For a scored metric:
 *
 * - **Baseline entry, relative mode**: the baseline decides instead of the metric's own threshold.
 *   Fails when `score - baseline < -max_drop` (a regression) or when the score is below
 *   `min_floor`; the reason gives baseline, current, delta and the allowed drop.
 * - **Baseline entry, absolute mode**: the metric's own verdict stands; the delta is reported, and
 *   `min_floor` still fails a score below it.
 * - **No entry**: the metric's own verdict stands and it warns (`details.warn`) with the command
 *   that creates the entry; under `--strict` it fails. `min_floor` still applies.
 *
 * The numbers go into `details` as flat keys (`baseline_score`, `baseline_delta`, `max_drop`,
 * `min_floor`, `regression`, `below_floor`, `baseline_missing`) so that they survive the
 * withholding of `metadata_only` content, which keeps only top-level numbers and booleans.
 */
export function gateAgainstBaseline(input: BaselineGateInput): MetricResult[] {
  const keys = metricKeys(input.metrics);
  return input.metrics.map((metric, index) => {
    if (metric.score === null || metric.error === true) return metric;
    const thresholding = resolveThresholding(input.suiteDefault, input.overrides[index]);
    const entry = input.baseline.entry(input.scenarioId, keys[index]!);
    const gated =
      entry === undefined
        ? missingEntry(metric, metric.score, thresholding, input, keys[index]!)
        : againstEntry(metric, metric.score, entry.score, thresholding);
    return keepHardFloor(metric, gated);
  });
}

/**
 * The ids of the required rubric criteria a metric found unmet (`details.unmet_required`, written
 * by the judge): a hard floor that no score, baseline, threshold mode or tuning can lift.
 */
export function unmetRequiredCriteria(metric: MetricResult): string[] {
  const unmet = metric.details?.['unmet_required'];
  return Array.isArray(unmet) ? unmet.filter((id): id is string => typeof id === 'string') : [];
}

/** A metric that failed a required criterion stays failed, whatever the baseline comparison says. */
function keepHardFloor(metric: MetricResult, gated: MetricResult): MetricResult {
  const unmet = unmetRequiredCriteria(metric);
  if (unmet.length === 0 || !gated.passed) return gated;
  const named = unmet.map((id) => `"${id}"`).join(', ');
  const { warn: _warn, ...details } = gated.details ?? {};
  return {
    ...gated,
    passed: false,
    reason: `required ${unmet.length === 1 ? 'criterion' : 'criteria'} ${named} not met: fails whatever the baseline says — ${gated.reason}`,
    details: { ...details, required_unmet: true },
  };
}

function againstEntry(metric: MetricResult, score: number, baselineScore: number, thresholding: ResolvedThresholding): MetricResult {
  const delta = score - baselineScore;
  const regression = thresholding.mode === 'relative' && delta < -thresholding.max_drop - TOLERANCE;
  const belowFloor = isBelowFloor(score, thresholding);
  const numbers = `baseline ${formatScore(baselineScore)}, current ${formatScore(score)}, delta ${formatDelta(delta)}`;
  const allowed = `allowed drop ${formatScore(thresholding.max_drop)}`;

  let passed: boolean;
  let verdict: string;
  if (belowFloor) {
    passed = false;
    verdict = `below min_floor ${formatScore(thresholding.min_floor!)}: ${numbers} (${allowed})`;
  } else if (thresholding.mode === 'absolute') {
    passed = metric.passed;
    verdict = `absolute thresholding, the baseline does not gate: ${numbers}`;
  } else if (regression) {
    passed = false;
    verdict = `regressed against the baseline: ${numbers} exceeds the ${allowed}`;
  } else {
    passed = true;
    verdict = `within the baseline: ${numbers} (${allowed})`;
  }
  return {
    ...metric,
    passed,
    reason: `${verdict} — ${metric.reason}`,
    details: {
      ...metric.details,
      baseline_score: baselineScore,
      baseline_delta: delta,
      max_drop: thresholding.max_drop,
      ...(thresholding.min_floor !== null ? { min_floor: thresholding.min_floor } : {}),
      regression,
      below_floor: belowFloor,
    },
  };
}

function missingEntry(
  metric: MetricResult,
  score: number,
  thresholding: ResolvedThresholding,
  input: BaselineGateInput,
  key: string,
): MetricResult {
  const belowFloor = isBelowFloor(score, thresholding);
  const missing = `no baseline entry for scenario "${input.scenarioId}", metric "${key}"; create it with: ${input.createCommand}`;
  const details = {
    ...metric.details,
    baseline_missing: true,
    ...(thresholding.min_floor !== null ? { min_floor: thresholding.min_floor } : {}),
    below_floor: belowFloor,
  };
  if (belowFloor) {
    const floor = `below min_floor ${formatScore(thresholding.min_floor!)}: current ${formatScore(score)}`;
    return { ...metric, passed: false, reason: `${floor}; ${missing} — ${metric.reason}`, details };
  }
  if (input.strict) {
    return { ...metric, passed: false, reason: `${missing} (a missing entry fails under --strict) — ${metric.reason}`, details };
  }
  // The metric's own verdict stands; a passing metric warns so the gap is seen and fixed.
  return { ...metric, reason: `${missing} — ${metric.reason}`, details: { ...details, ...(metric.passed ? { warn: true } : {}) } };
}

function isBelowFloor(score: number, thresholding: ResolvedThresholding): boolean {
  return thresholding.min_floor !== null && score < thresholding.min_floor - TOLERANCE;
}
