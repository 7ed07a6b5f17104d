import { ConfigError } from '@parley/core';

/** The backend refused the credentials: a configuration problem (exit 2), named without the keys. */
export function refusedKeys(destination: string, status: number, hint: string): ConfigError {
  return new ConfigError(`${destination} refused the keys (HTTP ${status}): ${hint}`);
}

/** Sending failed after the retries (unreachable, 5xx, a rejected payload). */
export class ExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportError';
  }
}
