import type { CalibrationItem, CalibrationSet } from '@parley/config';
import { transcriptDigest } from '../import/transcript-digest.js';

/**
 * Each item's transcript digest (by item id), computed once per set: the report and its page's
 * pairs both need them, and hashing 1,000 transcripts each time cost more than the statistics.
 */
const digestsByItems = new WeakMap<CalibrationSet['items'], { items: ReadonlyArray<CalibrationItem>; digests: ReadonlyMap<string, string> }>();

export function itemDigests(set: Pick<CalibrationSet, 'items'>): ReadonlyMap<string, string> {
  const cached = digestsByItems.get(set.items);
  // The same items (an item added or replaced in place since is hashed afresh).
  if (cached !== undefined && cached.items.length === set.items.length && cached.items.every((item, index) => item === set.items[index])) return cached.digests;
  const digests = new Map(set.items.map((item) => [item.id, transcriptDigest(item.transcript)]));
  digestsByItems.set(set.items, { items: [...set.items], digests });
  return digests;
}
