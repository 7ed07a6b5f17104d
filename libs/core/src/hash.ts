import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** Hex sha256 of a string (UTF-8) or bytes. */
export function sha256Hex(input: string | Uint8Array): string {
  return createHash('sha256').update(input).digest('hex');
}

/** Hex sha256 of the canonical JSON of a value: the one hasher for keys and fingerprints. */
export function hashCanonical(value: unknown, cache?: WeakMap<object, string>): string {
  return sha256Hex(canonicalJson(value, cache));
}
