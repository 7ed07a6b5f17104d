import type { Provider } from '@parley/core';
import { isProviderError, ProviderError } from './provider-error.js';
import { realSleep, type Sleep } from './sleep.js';

export interface RetryPolicy {
  /** Retries after the first attempt (default 3: four attempts in all). */
  maxRetries?: number;
  /** First backoff, doubled on each retry (default 500 ms). */
  baseDelayMs?: number;
  /** Cap of one backoff, and of a Retry-After the provider asks for (default 30 s). */
  maxDelayMs?: number;
}

export interface RetryDependencies {
  sleep?: Sleep;
  /** [0, 1): the jitter source (seeded in tests). */
  random?: () => number;
  /** Told before each wait, e.g. for a progress line or a test. */
  onRetry?: (retry: { attempt: number; delayMs: number; error: ProviderError }) => void;
}

export const DEFAULT_RETRY_POLICY: Required<RetryPolicy> = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

/** A policy with the defaults filled in (a field given as undefined keeps its default). */
export function resolvedRetryPolicy(policy: RetryPolicy = {}): Required<RetryPolicy> {
  return { ...DEFAULT_RETRY_POLICY, ...definedOnly(policy) };
}

/**
 * Whether another attempt may succeed: rate limits (429), server errors (5xx, and 408/409 which
 * providers use for transient conflicts), timeouts, dropped connections and bodies cut off
 * mid-answer. A missing key, a bad request, a replay miss or an abort will not change on retry.
 */
export function isRetryable(error: unknown): error is ProviderError {
  if (!isProviderError(error)) return false;
  switch (error.kind) {
    case 'rate_limited':
    case 'timeout':
    case 'connection':
    case 'malformed_response':
      return true;
    case 'http':
      return error.status !== undefined && (error.status >= 500 || error.status === 408 || error.status === 409);
    default:
      return false;
  }
}

/**
 * The wait before retry number `attempt` (1-based): full-jitter exponential backoff
 * (`random × base × 2^(attempt-1)`, capped), but never shorter than the provider's Retry-After.
 */
export function backoffDelayMs(attempt: number, policy: Required<RetryPolicy>, random: number, retryAfterSeconds?: number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = Math.round(random * exponential);
  const asked = retryAfterSeconds === undefined ? 0 : Math.min(policy.maxDelayMs, Math.ceil(retryAfterSeconds * 1000));
  return Math.max(jittered, asked);
}

/**
 * The wait a server asks for before a retry, in seconds: `retry-after-ms` (OpenAI's), else
 * `Retry-After` as seconds or as an HTTP date. `header` reads one response header by name.
 */
export function retryAfterSeconds(header: (name: string) => string | null | undefined, now: number = Date.now()): number | undefined {
  const milliseconds = Number(header('retry-after-ms'));
  if (Number.isFinite(milliseconds) && milliseconds > 0) return milliseconds / 1000;
  const value = header('retry-after')?.trim();
  if (value === undefined || value === null || value === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

/**
 * Retries transient failures with exponential backoff and jitter, honouring Retry-After. Each
 * attempt goes through the layers below (rate limit, timeout) again. When the retries run out the
 * last error is thrown with the attempt count in its message, so the scenario's `error` result
 * says what kept failing and how often it was tried.
 */
export function retryingProvider(inner: Provider, policy: RetryPolicy = {}, dependencies: RetryDependencies = {}): Provider {
  const settings = resolvedRetryPolicy(policy);
  const sleep = dependencies.sleep ?? realSleep;
  const random = dependencies.random ?? Math.random;
  return {
    async complete(request, context, signal) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await inner.complete(request, context, signal);
        } catch (error) {
          if (signal?.aborted) throw abortedError(context);
          if (!isRetryable(error)) throw error;
          if (attempt > settings.maxRetries) throw gaveUp(error, attempt);
          const delayMs = backoffDelayMs(attempt, settings, random(), error.retryAfterSeconds);
          dependencies.onRetry?.({ attempt, delayMs, error });
          try {
            await sleep(delayMs, signal);
          } catch {
            throw abortedError(context);
          }
        }
      }
    },
  };
}

function gaveUp(error: ProviderError, attempts: number): ProviderError {
  return new ProviderError(error.kind, `${error.message} (gave up after ${attempts} attempts)`, {
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.context !== undefined ? { context: error.context } : {}),
    ...(error.details !== undefined ? { details: error.details } : {}),
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  });
}

function abortedError(context: ProviderError['context']): ProviderError {
  return new ProviderError('aborted', 'call aborted', context ? { context } : {});
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}
