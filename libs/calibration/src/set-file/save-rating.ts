import type { CalibrationRating } from '@parley/config';
import type { CalibrationSetEditor, RatingInput } from './calibration-editor.js';
import { updateCalibrationSet, type UpdateCalibrationSetOptions } from './update-calibration-set.js';

/** A reviewer's scores (axis → 1–5) and note on one item, as a session knows them. */
export interface KnownRating {
  scores: Readonly<Record<string, number>>;
  note?: string;
}

export interface SaveRatingOptions extends UpdateCalibrationSetOptions {
  /**
   * The reviewer's rating of the item as the saving session last saw it (`null`: it saw none).
   * When the file holds a different one (the same reviewer saved it from another session since),
   * nothing is written and a {@link RatingConflict} is thrown. Left out, the rating is saved
   * whatever the file holds.
   */
  expected?: KnownRating | null;
}

/**
 * The same reviewer changed their rating of the item in another session (a second terminal) since
 * this session loaded it: saving now would silently replace it, so nothing was written.
 */
export class RatingConflict extends Error {
  constructor(
    readonly itemId: string,
    readonly reviewer: string,
    /** The reviewer's rating in the file now (undefined: the other session took it back). */
    readonly onDisk: CalibrationRating | undefined,
  ) {
    super(
      onDisk === undefined
        ? `${reviewer}'s rating of ${itemId} was taken back in another session since this one loaded it`
        : `${reviewer} rated ${itemId} in another session (at ${onDisk.rated_at}) since this one loaded it`,
    );
    this.name = 'RatingConflict';
  }
}

/**
 * Saves one reviewer's rating of one item in `human_labelled.yaml` (what the TUI calls on every
 * Enter): merged into the file as it is now, atomically. Resolves once the rating is on disk.
 */
export function saveRating(file: string, itemId: string, rating: RatingInput, options: SaveRatingOptions = {}): Promise<'added' | 'replaced'> {
  return updateCalibrationSet(
    file,
    (editor) => {
      checkUnchanged(editor, itemId, rating.reviewer, options.expected);
      return editor.putRating(itemId, rating);
    },
    options,
  );
}

/**
 * Takes back a reviewer's rating of an item (the TUI's undo); false when there was none. With
 * `expected`, only when the file still holds that rating (else a {@link RatingConflict}).
 */
export function removeRating(file: string, itemId: string, reviewer: string, options: SaveRatingOptions = {}): Promise<boolean> {
  return updateCalibrationSet(
    file,
    (editor) => {
      checkUnchanged(editor, itemId, reviewer, options.expected);
      return editor.removeRating(itemId, reviewer);
    },
    options,
  );
}

/** The reviewer's rating of an item in the set as it stands, as scores and note. */
export function knownRating(rating: CalibrationRating, axes: readonly string[]): KnownRating {
  const scores: Record<string, number> = {};
  for (const axis of axes) {
    const score = rating[axis];
    if (typeof score === 'number') scores[axis] = score;
  }
  return typeof rating.note === 'string' && rating.note.trim() !== '' ? { scores, note: rating.note } : { scores };
}

/** Whether two ratings give the same scores on every axis and the same note. */
export function sameRating(left: KnownRating | null | undefined, right: KnownRating | null | undefined): boolean {
  if (!left || !right) return !left && !right;
  const axes = new Set([...Object.keys(left.scores), ...Object.keys(right.scores)]);
  for (const axis of axes) if (left.scores[axis] !== right.scores[axis]) return false;
  return (left.note ?? '').trim() === (right.note ?? '').trim();
}

function checkUnchanged(editor: CalibrationSetEditor, itemId: string, reviewer: string, expected: KnownRating | null | undefined): void {
  if (expected === undefined) return;
  const item = editor.set.items.find((candidate) => candidate.id === itemId);
  if (item === undefined) return; // putRating/removeRating say that the item is gone
  const onDisk = item.ratings.find((entry) => entry.reviewer === reviewer);
  if (!sameRating(onDisk ? knownRating(onDisk, editor.set.axes) : null, expected)) throw new RatingConflict(itemId, reviewer, onDisk);
}
