import type { MetricResult, Status } from '@parley/core';

export interface ScenarioStatusInput {
  metrics: readonly MetricResult[];
  /** Set when the scenario could not be run or evaluated at all (provider down, recording miss). */
  error?: { message: string } | null;
  /**
   * Per metric (same index): whether its expectation gates the scenario. Missing entries are
   * blocking. A non-blocking expectation can only lower a scenario to `warn`, never to `fail`.
   */
  blockingMetrics?: readonly boolean[];
}

/** A status with the one line that explains it. */
export interface StatusVerdict {
  status: Status;
  reason: string;
}

/**
 * Decides a scenario's status from its metric results. Rules, first match wins:
 *
 * 1. `error`: the scenario carries an error, or a blocking metric could not be evaluated
 *    (`error: true`). An unevaluated scenario says nothing about the agent, so this outranks a
 *    failure that happens to be present too.
 * 2. `fail`: a blocking metric did not pass. The reason is the first failing metric's.
 * 3. `warn`: a metric passed but flagged a concern (`details.warn === true`, e.g. a missing
 *    baseline entry), or a non-blocking metric failed or could not be evaluated.
 * 4. `pass` otherwise, including a scenario without expectations.
 *
 * Every reason names the metric it comes from: `content_signals: forbidden "reservation" found
 * in assistant message 3`.
 */
export function scenarioStatus(input: ScenarioStatusInput): StatusVerdict {
  if (input.error) return { status: 'error', reason: input.error.message };

  const isBlocking = (index: number): boolean => input.blockingMetrics?.[index] ?? true;
  const blocking = input.metrics.filter((_, index) => isBlocking(index));

  const unevaluated = blocking.find((metric) => metric.error === true);
  if (unevaluated) return { status: 'error', reason: metricReason(unevaluated) };

  const failed = blocking.find((metric) => !metric.passed);
  if (failed) return { status: 'fail', reason: metricReason(failed) };

  for (const [index, metric] of input.metrics.entries()) {
    if (metric.details?.['warn'] === true) return { status: 'warn', reason: metricReason(metric) };
    if (!isBlocking(index) && (metric.error === true || !metric.passed)) {
      return { status: 'warn', reason: `${metric.metric} (advisory): ${metric.reason}` };
    }
  }

  if (input.metrics.length === 0) return { status: 'pass', reason: 'no expectations' };
  const noun = input.metrics.length === 1 ? 'expectation' : 'expectations';
  return { status: 'pass', reason: `${input.metrics.length} ${noun} passed` };
}

function metricReason(metric: MetricResult): string {
  return `${metric.metric}: ${metric.reason}`;
}
