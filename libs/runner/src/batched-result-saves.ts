import type { ScenarioResult } from '@parley/core';

/** The most results saved in one transaction. */
const MAX_BATCH = 16;
/** The longest a finished result waits in memory before it is saved. */
const MAX_DELAY_MS = 200;

export interface BatchedResultSaves {
  /** Queues a finished scenario's reported result; it is saved with others in one transaction soon. */
  save(result: ScenarioResult): void;
  /** Saves everything queued, now. Throws what a failed save threw (also one made by the timer). */
  flush(): void;
  /** Flushes and stops: no timer and no abort listener is left behind. Idempotent. */
  close(): void;
}

export interface BatchedResultSavesOptions {
  maxBatch?: number;
  maxDelayMs?: number;
  /** Ctrl-C: what is queued is saved at once, and from then on every result as it comes. */
  signal?: AbortSignal;
  /** Timer of the delayed save (tests inject one; the default never keeps the process alive). */
  setTimer?: (callback: () => void, delayMs: number) => () => void;
}

/**
 * Saves a run's finished results in small batches: one SQLite transaction per batch instead of one
 * per scenario, which is most of what saving costs in a large replay. A result waits at most
 * {@link MAX_DELAY_MS} (or until {@link MAX_BATCH} are queued); Ctrl-C saves what is queued at once
 * and the run saves the rest when it ends or fails, so every finished result is kept.
 *
 * @example
 * const saves = batchedResultSaves((results) => store.saveScenarioResults(runId, results), { signal });
 * saves.save(result); // … later, always:
 * saves.close();
 */
export function batchedResultSaves(saveAll: (results: readonly ScenarioResult[]) => void, options: BatchedResultSavesOptions = {}): BatchedResultSaves {
  const maxBatch = options.maxBatch ?? MAX_BATCH;
  const maxDelayMs = options.maxDelayMs ?? MAX_DELAY_MS;
  const setTimer = options.setTimer ?? unrefTimer;
  const { signal } = options;
  let queue: ScenarioResult[] = [];
  let cancelTimer: (() => void) | undefined;
  let failure: { error: unknown } | undefined;
  let closed = false;

  const flush = (): void => {
    cancelTimer?.();
    cancelTimer = undefined;
    if (failure !== undefined) {
      const { error } = failure;
      failure = undefined;
      throw error;
    }
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    saveAll(batch);
  };
  const flushLater = (): void => {
    cancelTimer = undefined;
    try {
      flush();
    } catch (error) {
      failure = { error }; // thrown to the run at its next save or flush
    }
  };
  const onAbort = (): void => flushLater();
  signal?.addEventListener('abort', onAbort, { once: true });

  return {
    save(result) {
      if (closed) throw new Error('batchedResultSaves: save after close');
      queue.push(result);
      if (signal?.aborted === true || queue.length >= maxBatch || failure !== undefined) flush();
      else cancelTimer ??= setTimer(flushLater, maxDelayMs);
    },
    flush,
    close() {
      if (closed) return;
      closed = true;
      signal?.removeEventListener('abort', onAbort);
      flush();
    },
  };
}

function unrefTimer(callback: () => void, delayMs: number): () => void {
  const timer = setTimeout(callback, delayMs);
  timer.unref();
  return () => clearTimeout(timer);
}
