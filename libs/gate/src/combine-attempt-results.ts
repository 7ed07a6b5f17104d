import { addCost, emptyCost, type MetricResult, type ScenarioResult, type Status } from '@parley/core';
import { combineAttempts } from './repeat-status.js';
import { formatDelta, formatScore } from './score-text.js';

/**
 * One reported result from the attempts of a scenario run N times (`--repeat N`):
 *
 * - status from {@link combineAttempts} (all pass → pass, all fail → fail, mixed → flaky); the
 *   reason says `k of N attempts passed` and quotes the first attempt that explains the status;
 * - one metric per expectation: a scored metric's score is the mean of its attempts' scores
 *   (`details.attempt_scores` keeps them all), and it passed only if every attempt passed;
 * - the transcript and error of the attempt that explains the status (the first one that did not
 *   pass, else the first), the summed cost, the first attempt's session.
 *
 * The attempts themselves are kept by the caller (reports list them, the store saves them as
 * attempts 1..N). Throws on an empty list: a scenario that never ran has no result to combine.
 */
export function combineAttemptResults(attempts: readonly ScenarioResult[]): ScenarioResult {
  const first = attempts[0];
  if (first === undefined) throw new RangeError('combineAttemptResults needs at least one attempt');
  const verdict = combineAttempts(attempts.map((attempt) => attempt.status));
  const explainingIndex = explainingAttempt(attempts, verdict.status);
  const explaining = attempts[explainingIndex]!;
  const quoted = verdict.status === 'pass' || verdict.status === 'skipped' ? '' : `; attempt ${explainingIndex + 1} ${VERBS[explaining.status]}: ${explaining.reason}`;

  const { transcript: _transcript, error: _error, ...base } = first;
  return {
    ...base,
    status: verdict.status,
    reason: `${verdict.reason}${quoted}`,
    metrics: combineMetrics(attempts),
    ...(explaining.transcript !== undefined ? { transcript: explaining.transcript } : {}),
    cost: attempts.reduce((total, attempt) => addCost(total, attempt.cost), emptyCost()),
    ...(verdict.status === 'error' && explaining.error !== undefined ? { error: explaining.error } : {}),
  };
}

const VERBS: Record<Status, string> = { pass: 'passed', warn: 'warned', fail: 'failed', error: 'errored', flaky: 'was flaky', skipped: 'was skipped' };

/**
 * The attempt whose own result explains the combined status: the first with that status; for a
 * flaky scenario, the first that failed or errored; else the first that did not pass.
 */
function explainingAttempt(attempts: readonly ScenarioResult[], status: Status): number {
  const candidates: Array<(attempt: ScenarioResult) => boolean> = [
    (attempt) => attempt.status === status,
    (attempt) => status === 'flaky' && (attempt.status === 'fail' || attempt.status === 'error'),
    (attempt) => attempt.status !== 'pass',
  ];
  for (const matches of candidates) {
    const index = attempts.findIndex(matches);
    if (index >= 0) return index;
  }
  return 0;
}

/** Attempts that errored before their metrics ran have none; the others list them in expectation order. */
function combineMetrics(attempts: readonly ScenarioResult[]): MetricResult[] {
  const template = attempts.reduce((longest, attempt) => (attempt.metrics.length > longest.metrics.length ? attempt : longest)).metrics;
  return template.map((shape, index) => {
    const runs = attempts.flatMap((attempt, attemptIndex) => {
      const metric = attempt.metrics[index];
      return metric !== undefined && metric.metric === shape.metric ? [{ metric, attempt: attemptIndex + 1 }] : [];
    });
    return combineMetric(shape, runs);
  });
}

function combineMetric(shape: MetricResult, runs: ReadonlyArray<{ metric: MetricResult; attempt: number }>): MetricResult {
  const scored = runs.filter(({ metric }) => metric.score !== null && metric.error !== true);
  const scores = scored.map(({ metric }) => metric.score!);
  const score = scores.length > 0 ? scores.reduce((sum, value) => sum + value, 0) / scores.length : null;
  const passedCount = runs.filter(({ metric }) => metric.passed).length;
  const firstFailure = runs.find(({ metric }) => !metric.passed);
  const someDetail = (key: string): boolean => runs.some(({ metric }) => metric.details?.[key] === true);

  const summary =
    score === null
      ? `passed in ${passedCount} of ${runs.length} attempts`
      : `mean ${formatScore(score)} over ${scores.length} attempts (${scores.map(formatScore).join(', ')}), passed in ${passedCount} of ${runs.length}`;
  const failure = firstFailure === undefined ? '' : `; attempt ${firstFailure.attempt}: ${firstFailure.metric.reason}`;
  const baselineScore = runs.map(({ metric }) => metric.details?.['baseline_score']).find((value) => typeof value === 'number');

  const details: Record<string, unknown> = {
    attempts: runs.length,
    passed_attempts: passedCount,
    ...(score !== null ? { attempt_scores: scores } : {}),
  };
  if (typeof baselineScore === 'number') {
    details['baseline_score'] = baselineScore;
    if (score !== null) details['baseline_delta'] = score - baselineScore;
  }
  for (const key of ['max_drop', 'min_floor']) {
    const value = runs.map(({ metric }) => metric.details?.[key]).find((candidate) => typeof candidate === 'number');
    if (value !== undefined) details[key] = value;
  }
  for (const flag of ['regression', 'below_floor', 'baseline_missing', 'warn']) if (someDetail(flag)) details[flag] = true;
  const allErrored = runs.length > 0 && runs.every(({ metric }) => metric.error === true);

  return {
    metric: shape.metric,
    version: shape.version,
    score,
    threshold: shape.threshold,
    passed: runs.length > 0 && passedCount === runs.length,
    reason: `${summary}${failure}${typeof baselineScore === 'number' && score !== null ? `; mean against baseline ${formatScore(baselineScore)}: ${formatDelta(score - baselineScore)}` : ''}`,
    details,
    ...(allErrored ? { error: true } : {}),
  };
}
