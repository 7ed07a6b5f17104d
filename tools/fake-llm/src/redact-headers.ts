/**
 * Request headers as they may be shown in the log. Clients send real-looking keys even to the
 * fake (and sometimes real ones by mistake), and the log ends up in test output and CI artefacts,
 * so anything that names a credential is replaced before it is stored.
 */
import type { IncomingHttpHeaders } from 'node:http';

export const REDACTED = '[redacted]';

const CREDENTIAL_NAME = /key|token|secret|password|auth|cookie/i;

/** Header values by lower-case name (repeated headers joined with ", "), unredacted. */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * Replaces the value of every header whose name mentions a credential (authorization, x-api-key,
 * *key*, *token*, *secret*, *password*, cookies) with "[redacted]".
 *
 * @example redactHeaders({ 'x-api-key': 'sk-…', accept: 'application/json' })
 * // { 'x-api-key': '[redacted]', accept: 'application/json' }
 */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, CREDENTIAL_NAME.test(name) ? REDACTED : value]));
}
