import type { CallContext } from '@parley/core';

export type ProviderErrorKind =
  | 'http'
  | 'rate_limited'
  | 'timeout'
  | 'connection'
  | 'malformed_response'
  | 'missing_api_key'
  | 'replay_miss'
  | 'aborted'
  /** Not sent: the call's worst case did not fit the run's budget (the runner cuts the scenario short). */
  | 'budget'
  /** The agent under test (http, command, module) failed: bad status, non-JSON answer, exited, threw. */
  | 'agent';

/**
 * A model call that did not produce a usable answer. The runner turns it into an `error` result;
 * it never crashes the run. Messages never carry API keys.
 */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  readonly context: CallContext | undefined;
  /** Longer evidence for triage (a replay-miss diff, the provider's error body). */
  readonly details: string | undefined;
  /** Seconds the provider asked us to wait (Retry-After), when it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    kind: ProviderErrorKind,
    message: string,
    options: { status?: number; context?: CallContext; details?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = options.status;
    this.context = options.context;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
