import type { Provider } from '@parley/core';
import { estimateTokens, type RateLimiter } from './rate-limiter.js';

/** Holds each call until the provider's limiter grants it, and books what it really used. */
export function rateLimitedProvider(inner: Provider, limiter: RateLimiter): Provider {
  return {
    async complete(request, context, signal) {
      const permit = await limiter.acquire(estimateTokens(request), signal);
      try {
        const response = await inner.complete(request, context, signal);
        permit.release(response.usage);
        return response;
      } finally {
        permit.release();
      }
    },
  };
}
