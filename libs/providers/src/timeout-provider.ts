import type { Provider } from '@parley/core';
import { ProviderError } from './provider-error.js';
import { realSchedule, type Schedule } from './sleep.js';

/**
 * Gives every call its own deadline: past `timeoutMs` the call is aborted and fails with a
 * `timeout` error (which the retry layer may retry). The run's signal still aborts it at once.
 * The deadline does not trust the layer below to honour the abort: it stops waiting for it, so a
 * hung connection never holds a scenario longer than its timeout times its attempts.
 */
export function timeoutProvider(inner: Provider, timeoutMs: number, schedule: Schedule = realSchedule): Provider {
  return {
    async complete(request, context, signal) {
      const controller = new AbortController();
      const forward = (): void => controller.abort(signal?.reason);
      if (signal?.aborted) forward();
      else signal?.addEventListener('abort', forward, { once: true });
      let cancel = (): void => {};
      const deadline = new Promise<never>((_resolve, reject) => {
        cancel = schedule(timeoutMs, () => {
          controller.abort(new Error('timeout'));
          reject(new ProviderError('timeout', `${request.provider} call timed out after ${timeoutMs} ms (model ${request.model})`, { context }));
        });
      });
      const call = inner.complete(request, context, controller.signal);
      call.catch(() => undefined); // settled after the deadline won: nobody waits for it any more
      try {
        return await Promise.race([call, deadline]);
      } finally {
        cancel();
        signal?.removeEventListener('abort', forward);
      }
    },
  };
}
