import type { Status } from '@parley/core';

/**
 * How many results have each status. Every status is present (zero when absent) so that reports,
 * events and the console can print a fixed set of columns without checking for missing keys.
 *
 * @example countStatuses([{ status: 'pass' }, { status: 'fail' }]).fail === 1
 */
export function countStatuses(results: ReadonlyArray<{ status: Status }>): Record<Status, number> {
  const counts: Record<Status, number> = { pass: 0, fail: 0, warn: 0, flaky: 0, error: 0, skipped: 0 };
  for (const result of results) counts[result.status] += 1;
  return counts;
}
