import { ConfigError } from '@parley/core';

/** Said after "refused the keys": which variables hold them (never their values). */
export const LANGFUSE_KEYS_HINT = 'check LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY (a project\'s keys, from its settings page)';

/** Langfuse refused the project's keys (401/403): a configuration problem, exit 2. */
export function refusedLangfuseKeys(shown: string, status: number): ConfigError {
  return new ConfigError(`${shown} refused the keys (HTTP ${status}): ${LANGFUSE_KEYS_HINT}`);
}

/**
 * A call Langfuse did not answer as asked, after the retries: unreachable, a timeout, a refusal
 * other than the keys (`status`), or an answer that is not its API. The message names Langfuse's
 * URL, the request and the timeout that fired, never the keys; `stopped` is a call cut short by
 * Ctrl-C or SIGTERM. Each command decides what it means
 * for its exit code (a reader cannot go on: exit 2; an export could not deliver: exit 1).
 */
export class LangfuseError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout' | 'http' | 'not_api' | 'stopped',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LangfuseError';
  }
}
