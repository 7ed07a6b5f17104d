import { canonicalJson, sha256Hex } from '@parley/core';

/** Tool arguments after redaction: only the sha256 of their canonical JSON (docs/privacy.md, "The floor"). */
export interface HashedToolArguments {
  sha256: string;
  [key: string]: unknown;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Tool arguments become the sha256 of their canonical JSON: two calls with the same arguments
 * still compare equal (for triage and diffs) while the values (a customer's phone, a booking
 * note) are gone. Arguments that are already such a hash stay as they are, so hashing twice
 * equals hashing once. Never throws: a value canonical JSON refuses (NaN) is hashed as written.
 *
 * @example hashToolArguments({ phone: '254712345432' }) → { sha256: '…64 hex…' }
 */
export function hashToolArguments(args: unknown): HashedToolArguments {
  if (isHashedToolArguments(args)) return { sha256: args.sha256 };
  let text: string;
  try {
    text = canonicalJson(args ?? {});
  } catch {
    text = String(JSON.stringify(args));
  }
  return { sha256: sha256Hex(text) };
}

export function isHashedToolArguments(args: unknown): args is HashedToolArguments {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return false;
  const keys = Object.keys(args);
  const hash: unknown = Reflect.get(args, 'sha256');
  return keys.length === 1 && typeof hash === 'string' && SHA256.test(hash);
}
