import type { CalibrationItem, CalibrationSet } from '@parley/config';
import { updateCalibrationSet, type UpdateCalibrationSetOptions } from '../set-file/update-calibration-set.js';
import type { ItemCandidate, PassedOver } from './item-candidate.js';
import { transcriptDigest } from './transcript-digest.js';

export interface AddedItem {
  id: string;
  origin: string;
}

export interface AddItemsResult {
  added: AddedItem[];
  skipped: PassedOver[];
}

/**
 * Adds candidates to `human_labelled.yaml` as unrated items, skipping any whose masked transcript
 * is already in the set (or earlier in the same import). Ids are `cal-YYYY-MM-NNN` (docs/calibration.md)
 * by the date added, numbered on from the month's highest. Runs under the set's lock on the file
 * as it is now, so an import beside a reviewer's session loses neither.
 */
export function addCalibrationItems(
  file: string,
  candidates: readonly ItemCandidate[],
  now: Date,
  options: UpdateCalibrationSetOptions = {},
): Promise<AddItemsResult> {
  return updateCalibrationSet(
    file,
    (editor) => {
      const known = new Map(editor.set.items.map((item) => [transcriptDigest(item.transcript), item.id]));
      const added: AddedItem[] = [];
      const skipped: PassedOver[] = [];
      const date = now.toISOString().slice(0, 10);
      for (const candidate of candidates) {
        const digest = transcriptDigest(candidate.transcript);
        const existing = known.get(digest);
        if (existing !== undefined) {
          skipped.push({ origin: candidate.origin, reason: `already in the set as ${existing} (same content digest)` });
          continue;
        }
        const item: CalibrationItem = {
          id: nextItemId(editor.set, date),
          added: date,
          source: candidate.source,
          language: candidate.language,
          ...(candidate.vertical !== undefined ? { vertical: candidate.vertical } : {}),
          transcript: candidate.transcript,
          ratings: [],
        };
        editor.addItem(item);
        known.set(digest, item.id);
        added.push({ id: item.id, origin: candidate.origin });
      }
      return { added, skipped };
    },
    options,
  );
}

/** `cal-2026-11-007` after the month's highest number (three digits, more when needed). */
export function nextItemId(set: CalibrationSet, date: string): string {
  const prefix = `cal-${date.slice(0, 7)}-`;
  let highest = 0;
  for (const item of set.items) {
    if (!item.id.startsWith(prefix)) continue;
    const number = Number(item.id.slice(prefix.length));
    if (Number.isSafeInteger(number) && number > highest) highest = number;
  }
  return `${prefix}${String(highest + 1).padStart(3, '0')}`;
}
