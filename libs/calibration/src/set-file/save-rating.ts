import type { RatingInput } from './calibration-editor.js';
import { updateCalibrationSet, type UpdateCalibrationSetOptions } from './update-calibration-set.js';

/**
 * Saves one reviewer's rating of one item in `human_labelled.yaml` (what the TUI calls on every
 * Enter): merged into the file as it is now, atomically. Resolves once the rating is on disk.
 */
export function saveRating(file: string, itemId: string, rating: RatingInput, options: UpdateCalibrationSetOptions = {}): Promise<'added' | 'replaced'> {
  return updateCalibrationSet(file, (editor) => editor.putRating(itemId, rating), options);
}

/** Takes back a reviewer's rating of an item (the TUI's undo); false when there was none. */
export function removeRating(file: string, itemId: string, reviewer: string, options: UpdateCalibrationSetOptions = {}): Promise<boolean> {
  return updateCalibrationSet(file, (editor) => editor.removeRating(itemId, reviewer), options);
}
