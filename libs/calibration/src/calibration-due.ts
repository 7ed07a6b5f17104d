import type { CalibrationSet } from '@parley/config';
import type { CalibrationSession } from './store/calibration-store.js';

/** The judges are calibrated monthly: a set without a finished judge session in this many days is overdue. */
export const CALIBRATION_INTERVAL_DAYS = 35;
/** Each monthly session should bring at least this many new items to the set. */
export const MIN_NEW_ITEMS_PER_SESSION = 10;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CalibrationDue {
  /** `started_at` of the newest finished judge session, null when there is none. */
  last_session_at: string | null;
  /** Whole days since then (by the injected clock), null without a session. */
  days_since_last_session: number | null;
  /**
   * Items whose `added` date falls after the day of the session before the last one (the newest
   * of an earlier day) and on or before the last one: what the last monthly round added. Null
   * without a session.
   */
  items_added_last_session: number | null;
  /** What a person should do, one sentence each; empty when the calibration is up to date. */
  warnings: string[];
}

/**
 * Whether the monthly judge calibration is due (docs/calibration.md, "Why monthly": the judge's
 * agreement with people drifts, so it is re-measured every month on at least 10 new items). Overdue
 * when no judge session finished in the last 35 days; thin when the last session came with fewer
 * than 10 new items.
 *
 * @example
 * calibrationDue(set, store.sessions('calibration'), clock.now()).warnings
 * // ['the monthly judge calibration is overdue: the last `parley calibrate judge` session was 41 days ago (2026-10-16)']
 */
export function calibrationDue(set: { items: ReadonlyArray<Pick<CalibrationSet['items'][number], 'added'>> }, sessions: readonly CalibrationSession[], now: Date, parley = 'parley'): CalibrationDue {
  const finished = sessions
    .filter((session) => session.finished_at !== null)
    .sort((left, right) => (left.started_at < right.started_at ? 1 : left.started_at > right.started_at ? -1 : 0));
  const last = finished[0];
  if (last === undefined) {
    return {
      last_session_at: null,
      days_since_last_session: null,
      items_added_last_session: null,
      warnings: [`the monthly judge calibration is overdue: the judges have never been calibrated against this set (\`${parley} calibrate judge\`)`],
    };
  }
  const days = Math.floor((now.getTime() - Date.parse(last.started_at)) / DAY_MS);
  const lastDay = last.started_at.slice(0, 10);
  // Items carry the day they were added, not the time: the round before is the newest session of
  // an earlier day (judging the set again on the same day, another judge or a resumed session,
  // belongs to the same round and must not make that round's items look old).
  const previousDay = finished.map((session) => session.started_at.slice(0, 10)).find((day) => day < lastDay);
  const added = set.items.filter((item) => item.added <= lastDay && (previousDay === undefined || item.added > previousDay)).length;
  const warnings: string[] = [];
  if (days > CALIBRATION_INTERVAL_DAYS) {
    warnings.push(`the monthly judge calibration is overdue: the last \`${parley} calibrate judge\` session was ${days} days ago (${lastDay}; due every ${CALIBRATION_INTERVAL_DAYS} days)`);
  }
  if (added < MIN_NEW_ITEMS_PER_SESSION) {
    warnings.push(`the last judge calibration (${lastDay}) came with ${added} new item${added === 1 ? '' : 's'}; add at least ${MIN_NEW_ITEMS_PER_SESSION} each month (\`${parley} calibrate import\`)`);
  }
  return { last_session_at: last.started_at, days_since_last_session: days, items_added_last_session: added, warnings };
}
