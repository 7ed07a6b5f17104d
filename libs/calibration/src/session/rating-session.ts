import type { CalibrationMessage, CalibrationSet } from '@parley/config';
import type { RatingInput } from '../set-file/calibration-editor.js';
import { ratingOrder } from './rating-order.js';

/** The reviewer's own scores and note on one item (never anyone else's). */
export interface OwnRating {
  scores: Readonly<Record<string, number>>;
  note?: string;
}

/**
 * An item as a reviewer's session shows it: the masked transcript and where it came from, and
 * only this reviewer's own rating. Other reviewers' ratings are left out here, so no screen can
 * show them by mistake (the session is blind: docs/calibration.md, "Who rates").
 */
export interface RatingSessionItem {
  id: string;
  source: string;
  language: string;
  vertical?: string;
  transcript: readonly CalibrationMessage[];
  own?: OwnRating;
}

/** An item skipped in this session, with the reason the reviewer typed ('' for none). */
export interface SkippedItem {
  id: string;
  reason: string;
}

/**
 * One reviewer's rating session over a calibration set, as an immutable value: each step returns
 * a new session. Skips are kept for the session only: a skip is not a rating, so nothing goes into
 * `human_labelled.yaml` and the item comes back in the next session.
 */
export interface RatingSession {
  reviewer: string;
  axes: readonly string[];
  rubricVersion: string;
  /** In the reviewer's order (see `ratingOrder`). */
  items: readonly RatingSessionItem[];
  /** The item shown; `items.length` when nothing is left to rate. */
  position: number;
  skipped: readonly SkippedItem[];
  /** Items saved in this session, latest last: what `u` takes back. */
  saved: readonly string[];
}

export interface RatingProgress {
  /** Items this reviewer has rated (in any session). */
  done: number;
  /** Items this reviewer has not rated yet (skipped ones included). */
  toDo: number;
  total: number;
  skipped: number;
}

/**
 * Starts a session: the items in the reviewer's order, at the first one the reviewer has not
 * rated (a session resumes where the last one stopped).
 */
export function startRatingSession(set: CalibrationSet, reviewer: string): RatingSession {
  const byId = new Map(set.items.map((item) => [item.id, item]));
  const items = ratingOrder(
    set.items.map((item) => item.id),
    reviewer,
  ).map((id): RatingSessionItem => {
    const item = byId.get(id)!;
    const own = item.ratings.find((rating) => rating.reviewer === reviewer);
    return {
      id: item.id,
      source: item.source,
      language: item.language,
      ...(item.vertical !== undefined ? { vertical: item.vertical } : {}),
      transcript: item.transcript,
      ...(own ? { own: ownRating(own, set.axes) } : {}),
    };
  });
  const session: RatingSession = { reviewer, axes: set.axes, rubricVersion: set.rubric_version, items, position: 0, skipped: [], saved: [] };
  return { ...session, position: nextPosition(session, -1) };
}

/**
 * How many items each reviewer has rated (counts only, kept apart from the session, which never
 * holds anything of other reviewers): the progress the item list shows per reviewer.
 */
export function ratedPerReviewer(set: CalibrationSet): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of set.items) for (const rating of item.ratings) counts[rating.reviewer] = (counts[rating.reviewer] ?? 0) + 1;
  return counts;
}

/** The item to rate now, or undefined when the session is done. */
export function currentItem(session: RatingSession): RatingSessionItem | undefined {
  return session.items[session.position];
}

export function ratingProgress(session: RatingSession): RatingProgress {
  const done = session.items.filter((item) => item.own !== undefined).length;
  return { done, toDo: session.items.length - done, total: session.items.length, skipped: session.skipped.length };
}

/**
 * The next item to show after index `from`: the first one after it, wrapping round to the start,
 * that the reviewer has neither rated nor skipped in this session; `items.length` when none is left.
 */
export function nextPosition(session: RatingSession, from: number): number {
  const skipped = new Set(session.skipped.map((entry) => entry.id));
  const count = session.items.length;
  for (let step = 1; step <= count; step += 1) {
    const index = (((from + step) % count) + count) % count;
    const item = session.items[index]!;
    if (item.own === undefined && !skipped.has(item.id)) return index;
  }
  return count;
}

/** The axes of `scores` still without a 1–5 score, in the set's order. */
export function missingAxes(session: RatingSession, scores: Readonly<Record<string, number | undefined>>): string[] {
  return session.axes.filter((axis) => scores[axis] === undefined);
}

/**
 * What to write for the current item (see `saveRating`): the set's rubric version, the time to the
 * second, the note only when there is one.
 */
export function ratingToSave(session: RatingSession, rating: OwnRating, now: Date): RatingInput {
  const note = rating.note?.trim() ?? '';
  return {
    reviewer: session.reviewer,
    rated_at: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    rubric_version: session.rubricVersion,
    scores: rating.scores,
    ...(note !== '' ? { note } : {}),
  };
}

/** After the rating of `itemId` is on disk: it counts as done and the session moves on. */
export function recordSave(session: RatingSession, itemId: string, rating: OwnRating): RatingSession {
  const index = indexOf(session, itemId);
  const items = session.items.map((item, position) => (position === index ? { ...item, own: rating } : item));
  const next = { ...session, items, saved: [...session.saved.filter((id) => id !== itemId), itemId] };
  return { ...next, position: nextPosition(next, index) };
}

/** Skips the item for this session (nothing is written) and moves on. */
export function recordSkip(session: RatingSession, itemId: string, reason: string): RatingSession {
  const index = indexOf(session, itemId);
  const next = { ...session, skipped: [...session.skipped.filter((entry) => entry.id !== itemId), { id: itemId, reason: reason.trim() }] };
  return { ...next, position: nextPosition(next, index) };
}

/**
 * Shows the item at `index` (any item: rated ones to revise, skipped ones to rate after all),
 * wrapping round at either end.
 */
export function showItem(session: RatingSession, index: number): RatingSession {
  const count = session.items.length;
  if (count === 0) return session;
  return { ...session, position: ((index % count) + count) % count };
}

/** Shows the item `itemId`. */
export function showItemById(session: RatingSession, itemId: string): RatingSession {
  return showItem(session, indexOf(session, itemId));
}

/**
 * The reviewer's rating of `itemId` as another session of theirs saved it (undefined: took it
 * back): the session shows that one from now on. It is not this session's to undo.
 */
export function adoptRating(session: RatingSession, itemId: string, rating: OwnRating | undefined): RatingSession {
  const index = indexOf(session, itemId);
  const items = session.items.map((item, position) => (position !== index ? item : rating ? { ...item, own: rating } : withoutOwn(item)));
  return { ...session, items, saved: session.saved.filter((id) => id !== itemId) };
}

/** The item `u` would take back: the last one saved in this session, if any. */
export function lastSaved(session: RatingSession): RatingSessionItem | undefined {
  const id = session.saved[session.saved.length - 1];
  return id === undefined ? undefined : session.items[indexOf(session, id)];
}

/**
 * After the last save of the session was removed from disk (`removeRating`): the item is unrated
 * again and shown, and `restored` is what the reviewer had given, to edit and save again.
 */
export function recordUndo(session: RatingSession): { session: RatingSession; restored: OwnRating } | undefined {
  const item = lastSaved(session);
  if (!item?.own) return undefined;
  const index = indexOf(session, item.id);
  const items = session.items.map((entry, position) => (position === index ? withoutOwn(entry) : entry));
  return {
    session: { ...session, items, position: index, saved: session.saved.slice(0, -1) },
    restored: item.own,
  };
}

function ownRating(rating: Readonly<Record<string, unknown>>, axes: readonly string[]): OwnRating {
  const scores: Record<string, number> = {};
  for (const axis of axes) {
    const score = rating[axis];
    if (typeof score === 'number') scores[axis] = score;
  }
  return typeof rating.note === 'string' ? { scores, note: rating.note } : { scores };
}

function withoutOwn(item: RatingSessionItem): RatingSessionItem {
  const { own: _own, ...rest } = item;
  return rest;
}

function indexOf(session: RatingSession, itemId: string): number {
  const index = session.items.findIndex((item) => item.id === itemId);
  if (index < 0) throw new Error(`no item "${itemId}" in this rating session`);
  return index;
}
