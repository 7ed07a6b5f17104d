import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { withCallSignal } from './call-signal.js';

describe('withCallSignal', () => {
  it('leaves no listener on the run signal after many calls', async () => {
    const run = new AbortController();
    for (let index = 0; index < 50; index += 1) await withCallSignal(run.signal, async () => index);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('aborts the call when the run is aborted', async () => {
    const run = new AbortController();
    const seen = await withCallSignal(run.signal, async (signal) => {
      run.abort();
      return signal?.aborted;
    });
    expect(seen).toBe(true);
  });
});
