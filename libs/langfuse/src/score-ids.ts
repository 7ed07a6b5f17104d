import { sha256Hex } from '@parley/core';

/**
 * An id shaped like a UUID (version 8: derived from a name) from a seed, for what Parley sends
 * Langfuse under stable ids (scores, dataset items), so that sending again updates instead of adding.
 */
export function uuidFromSeed(seed: string): string {
  const hex = sha256Hex(seed);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
