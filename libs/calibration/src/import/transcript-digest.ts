import { hashCanonical } from '@parley/core';
import type { CalibrationMessage } from '@parley/config';

/**
 * The content digest of a (masked) transcript: sha256 of the canonical JSON of its roles and
 * texts. Two imports of the same conversation give the same digest, so the second is skipped; the
 * judge's ratings are stored with it, so a rating of an item whose text changed is not reused.
 */
export function transcriptDigest(transcript: readonly CalibrationMessage[]): string {
  return hashCanonical(transcript.map(({ role, content }) => ({ role, content })));
}
