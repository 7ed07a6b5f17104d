import type { CallContext } from '@parley/core';
import { ProviderError } from './provider-error.js';
import { retryAfterSeconds } from './retrying-provider.js';

/** The fields both SDKs' error classes carry; read structurally so neither SDK is loaded here. */
interface SdkErrorLike {
  name?: string;
  status?: number;
  message?: string;
  headers?: Headers | Record<string, string | null | undefined>;
  error?: unknown;
}

/**
 * Turns whatever an SDK call threw into a ProviderError. The SDK message is kept (neither SDK puts
 * keys in messages) but passed through `scrub` in case a user's base URL carried credentials.
 */
export function toProviderError(error: unknown, context: CallContext, provider: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const sdkError = (error ?? {}) as SdkErrorLike;
  // Prefer the class name: some SDK errors keep the generic `name` "Error".
  const name = `${(error as { constructor?: { name?: string } })?.constructor?.name ?? ''} ${sdkError.name ?? ''}`;
  const message = scrub(sdkError.message ?? String(error));
  const connectTimeout = connectTimeoutOf(error);
  if (connectTimeout !== undefined) return new ProviderError('timeout', `${provider} ${connectTimeout}`, { context });
  if (name === 'AbortError' || name === 'APIUserAbortError') {
    return new ProviderError('aborted', `${provider} call aborted`, { context });
  }
  if (name.includes('Timeout')) {
    return new ProviderError('timeout', `${provider} call timed out (the call's timeout: settings.timeout_ms, 60000 ms unless set)`, { context });
  }
  if (name.includes('Connection')) {
    return new ProviderError('connection', `${provider} connection failed: ${message}`, { context });
  }
  if (error instanceof SyntaxError) {
    return new ProviderError('malformed_response', `${provider} answered with a body that is not valid JSON`, {
      context,
      details: message,
    });
  }
  if (typeof sdkError.status === 'number') {
    const retryAfter = readRetryAfter(sdkError.headers);
    const kind = sdkError.status === 429 ? 'rate_limited' : 'http';
    return new ProviderError(kind, `${provider} answered HTTP ${sdkError.status}: ${message}`, {
      context,
      status: sdkError.status,
      ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
    });
  }
  return new ProviderError('connection', `${provider} call failed: ${message}`, { context });
}

/** The message of our connect-timeout error (see sdk-client.ts) along the error's causes (the SDKs wrap what fetch threw). */
function connectTimeoutOf(error: unknown): string | undefined {
  for (let cause: unknown = error, depth = 0; cause !== null && typeof cause === 'object' && depth < 5; cause = (cause as { cause?: unknown }).cause, depth += 1) {
    if ((cause as { code?: unknown }).code === 'PARLEY_CONNECT_TIMEOUT') return String((cause as { explanation?: unknown }).explanation);
  }
  return undefined;
}

function readRetryAfter(headers: SdkErrorLike['headers']): number | undefined {
  if (!headers) return undefined;
  return retryAfterSeconds((name) =>
    typeof (headers as Headers).get === 'function' ? (headers as Headers).get(name) : (headers as Record<string, string | null | undefined>)[name],
  );
}

/** Removes credentials that could hide in URLs or bearer strings of an error message. */
export function scrub(text: string): string {
  return text
    .replace(/(https?:\/\/)[^/\s:@]+:[^/\s@]+@/g, '$1[redacted]@')
    .replace(/\b(sk-[A-Za-z0-9_-]{6,}|sk-ant-[A-Za-z0-9_-]{6,})/g, '[redacted-key]')
    .replace(/(Bearer\s+)[A-Za-z0-9._-]+/gi, '$1[redacted]');
}
