import type { Status } from '@parley/core';
import type { StatusVerdict } from './scenario-status.js';

/**
 * Combines the statuses of one scenario run N times (`--repeat N`) into one verdict. Rules,
 * first match wins:
 *
 * 1. No attempt ran (none given, or all `skipped`): `skipped`.
 * 2. Skipped attempts are left out of the rest (they say nothing about the agent; a budget stop
 *    in the middle of the repeats must not turn a stable scenario flaky).
 * 3. Some attempts passed (`pass` or `warn`) and others did not (`fail`, `error`, `flaky`):
 *    `flaky`. An attempt that errors next to passing ones is an unstable scenario, not a broken one.
 * 4. Any `error` (and nothing passed): `error`.
 * 5. All `fail`: `fail`.
 * 6. All passed: `warn` if any attempt warned, else `pass`.
 *
 * The reason always says how many attempts passed: `2 of 3 attempts passed`.
 *
 * @example combineAttempts(['pass', 'fail', 'pass']) // { status: 'flaky', reason: '2 of 3 attempts passed' }
 */
export function combineAttempts(statuses: readonly Status[]): StatusVerdict {
  const ran = statuses.filter((status) => status !== 'skipped');
  if (ran.length === 0) {
    return { status: 'skipped', reason: statuses.length === 0 ? 'no attempts' : `all ${statuses.length} attempts skipped` };
  }

  const passed = ran.filter((status) => status === 'pass' || status === 'warn').length;
  const errored = ran.filter((status) => status === 'error').length;
  const skipped = statuses.length - ran.length;
  const notes = [errored > 0 ? `${errored} errored` : '', skipped > 0 ? `${skipped} skipped` : ''].filter(Boolean);
  const reason = `${passed} of ${ran.length} attempts passed${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;

  const unstable = ran.includes('flaky') || (passed > 0 && passed < ran.length);
  if (unstable) return { status: 'flaky', reason };
  if (errored > 0) return { status: 'error', reason };
  if (passed === 0) return { status: 'fail', reason };
  return { status: ran.includes('warn') ? 'warn' : 'pass', reason };
}
