import type { CalibrationSet } from '@parley/config';
import type { CalibrationFolder } from './calibration-folder.js';
import { calibrationDue, type CalibrationDue } from './calibration-due.js';
import type { CalibrationSession, CalibrationStore } from './store/calibration-store.js';

export interface ReviewerProgress {
  reviewer: string;
  /** Items with a rating by this reviewer. */
  rated: number;
  /** …of which rate every axis. */
  complete: number;
  /** Items this reviewer has not rated yet (what `parley tui rate` would show them). */
  to_rate: number;
}

export interface CalibrationStatus {
  folder: string;
  owner: string;
  rubric_version: string;
  axes: string[];
  items: number;
  /** Items nobody has rated. */
  unrated: string[];
  reviewers: ReviewerProgress[];
  last_session:
    | (Pick<CalibrationSession, 'id' | 'started_at' | 'finished_at' | 'mode' | 'rubric_version'> & {
        judge: string | null;
        cross_check: string | null;
        ratings: number;
        errors: number;
      })
    | null;
  sessions: number;
  /** Whether the monthly calibration is due (see calibrationDue). */
  due: CalibrationDue;
}

/** `parley calibrate status`: what the set holds, who rated what, and when the judge last ran. */
export function calibrationStatus(folder: CalibrationFolder, set: CalibrationSet, store: CalibrationStore, now: Date, parley = 'parley'): CalibrationStatus {
  const reviewers = new Map<string, ReviewerProgress>();
  for (const item of set.items) {
    for (const rating of item.ratings) {
      const progress = reviewers.get(rating.reviewer) ?? { reviewer: rating.reviewer, rated: 0, complete: 0, to_rate: 0 };
      progress.rated += 1;
      if (set.axes.every((axis) => typeof rating[axis] === 'number')) progress.complete += 1;
      reviewers.set(rating.reviewer, progress);
    }
  }
  for (const progress of reviewers.values()) progress.to_rate = set.items.length - progress.rated;
  const sessions = store.sessions(folder.shown, 1000);
  const last = sessions[0];
  const lastRatings = last === undefined ? [] : store.ratings(last.id);
  const model = (record: { provider: string; model: string } | undefined): string | null => (record === undefined ? null : `${record.provider}:${record.model}`);
  return {
    folder: folder.shown,
    owner: set.owner,
    rubric_version: set.rubric_version,
    axes: [...set.axes],
    items: set.items.length,
    unrated: set.items.filter((item) => item.ratings.length === 0).map((item) => item.id),
    reviewers: [...reviewers.values()].sort((left, right) => (left.reviewer < right.reviewer ? -1 : 1)),
    last_session:
      last === undefined
        ? null
        : {
            id: last.id,
            started_at: last.started_at,
            finished_at: last.finished_at,
            mode: last.mode,
            rubric_version: last.rubric_version,
            judge: model(last.raters.judge),
            cross_check: model(last.raters.cross_check),
            ratings: lastRatings.filter((rating) => rating.scores !== null).length,
            errors: lastRatings.filter((rating) => rating.error !== null).length,
          },
    sessions: sessions.length,
    due: calibrationDue(set, sessions, now, parley),
  };
}
