import type { RunRow } from './run-rows.js';

/** Exit codes of a run stopped by a signal: Ctrl-C (SIGINT, 130) or SIGTERM (143). */
const INTERRUPTED_EXIT_CODES: ReadonlySet<number> = new Set([130, 143]);

/**
 * What a stored run's outcome is called on screen: its status, `interrupted` when it was stopped
 * before the end (status `interrupted`, or exit code 130/143: runs stored before that status
 * existed kept the status of the results they had), `unfinished` while it has no end.
 */
export function runState(run: Pick<RunRow, 'status' | 'exit_code' | 'finished'>): string {
  if (run.status === 'interrupted' || (run.exit_code !== undefined && INTERRUPTED_EXIT_CODES.has(run.exit_code))) return 'interrupted';
  return run.status ?? 'unfinished';
}
