import type { Gate, Status } from '@parley/core';
import { statusSeverity } from './status-severity.js';

/**
 * Scenarios in the order someone triaging a red run reads them: what could not be evaluated and
 * what failed first, then flaky, then warnings, then passes and skips (the order of
 * {@link statusSeverity}). Within a status, blocking scenarios come before advisory ones (only
 * they fail the run), then scenario ids keep the list from reshuffling between runs.
 * Returns a new array; the input is left as it was.
 *
 * @example triageOrder([{ scenario_id: 'a', status: 'pass' }, { scenario_id: 'b', status: 'fail' }])
 * // → [{ scenario_id: 'b', status: 'fail' }, { scenario_id: 'a', status: 'pass' }]
 */
export function triageOrder<Result extends { scenario_id: string; status: Status; gate?: Gate }>(results: readonly Result[]): Result[] {
  return [...results].sort(
    (left, right) =>
      statusSeverity(right.status) - statusSeverity(left.status) ||
      gateRank(left.gate) - gateRank(right.gate) ||
      (left.scenario_id < right.scenario_id ? -1 : left.scenario_id > right.scenario_id ? 1 : 0),
  );
}

function gateRank(gate: Gate | undefined): number {
  return gate === 'advisory' ? 1 : 0;
}
