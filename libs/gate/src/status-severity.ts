import type { Status } from '@parley/core';

/**
 * Every status, from the one that matters most to a reader of a red run to the one that matters
 * least. Reports list scenarios in this order and the run's overall status is the most severe
 * status among its blocking scenarios.
 */
export const STATUSES_BY_SEVERITY: readonly Status[] = ['error', 'fail', 'flaky', 'warn', 'pass', 'skipped'];

/**
 * Larger is more severe: `error` > `fail` > `flaky` > `warn` > `pass` > `skipped`.
 *
 * `error` outranks `fail` because a scenario that could not be evaluated says nothing about the
 * agent, and hiding it behind ordinary failures would let a broken provider pass unnoticed.
 *
 * @example [...statuses].sort((left, right) => statusSeverity(right) - statusSeverity(left))
 */
export function statusSeverity(status: Status): number {
  return STATUSES_BY_SEVERITY.length - STATUSES_BY_SEVERITY.indexOf(status);
}
