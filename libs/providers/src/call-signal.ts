/**
 * Runs one SDK call with its own AbortSignal that follows the run's signal. The SDKs attach a
 * listener to the signal they get and a run makes thousands of calls: giving each call a child
 * signal, and detaching it when the call settles, keeps the run's signal free of leftovers.
 */
export async function withCallSignal<T>(signal: AbortSignal | undefined, call: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (!signal) return call(undefined);
  const controller = new AbortController();
  const forward = (): void => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  try {
    return await call(controller.signal);
  } finally {
    signal.removeEventListener('abort', forward);
  }
}
