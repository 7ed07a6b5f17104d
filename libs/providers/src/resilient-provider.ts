import type { Provider } from '@parley/core';
import type { RateLimiter } from './rate-limiter.js';
import { rateLimitedProvider } from './rate-limited-provider.js';
import { retryingProvider, type RetryDependencies, type RetryPolicy } from './retrying-provider.js';
import type { Schedule } from './sleep.js';
import { timeoutProvider } from './timeout-provider.js';

export interface ResilienceSettings {
  /** Deadline of one attempt. */
  timeoutMs?: number;
  /** The provider's limiter, shared by the whole run. */
  limiter?: RateLimiter;
  retry?: RetryPolicy;
  /** Injected sleeper, jitter and timer so tests never wait. */
  dependencies?: RetryDependencies & { schedule?: Schedule };
}

/**
 * The live call stack of one provider: retry ⟶ rate limit ⟶ timeout ⟶ the SDK call. Each retry
 * waits for the limiter again and gets a fresh deadline; the run's AbortSignal reaches every layer.
 */
export function resilientProvider(live: Provider, settings: ResilienceSettings = {}): Provider {
  let provider = live;
  if (settings.timeoutMs !== undefined) provider = timeoutProvider(provider, settings.timeoutMs, settings.dependencies?.schedule);
  if (settings.limiter) provider = rateLimitedProvider(provider, settings.limiter);
  return retryingProvider(provider, settings.retry, settings.dependencies);
}
