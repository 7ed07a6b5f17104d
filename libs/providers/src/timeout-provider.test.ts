import { describe, expect, it } from 'vitest';
import type { Provider } from '@parley/core';
import { timeoutProvider } from './timeout-provider.js';

const request = { provider: 'openai' as const, model: 'gpt-4.1-mini', messages: [] };
const context = { role: 'agent' as const, scenario_id: 's', turn: 1 };

/** A timer the test fires by hand. */
function manualSchedule() {
  const pending = new Set<() => void>();
  return {
    schedule: (_milliseconds: number, callback: () => void) => {
      pending.add(callback);
      return () => pending.delete(callback);
    },
    fire: () => [...pending].forEach((callback) => callback()),
    get pending() {
      return pending.size;
    },
  };
}

describe('timeoutProvider', () => {
  it('fails a call that hangs past its deadline with a timeout error and aborts it', async () => {
    const timer = manualSchedule();
    let innerSignal: AbortSignal | undefined;
    const hanging: Provider = {
      complete: (_request, _context, signal) => {
        innerSignal = signal;
        return new Promise(() => {}); // never answers and ignores the abort, like a stuck socket
      },
    };
    const call = timeoutProvider(hanging, 1500, timer.schedule).complete(request, context);
    timer.fire();
    await expect(call).rejects.toMatchObject({ kind: 'timeout', message: 'openai call timed out after 1500 ms (model gpt-4.1-mini)' });
    expect(innerSignal?.aborted).toBe(true);
  });

  it('cancels its timer when the call answers in time, and passes the run abort through', async () => {
    const timer = manualSchedule();
    const quick: Provider = {
      complete: async () => ({ content: 'ok', tool_calls: [], usage: { input_tokens: 0, output_tokens: 0 }, finish_reason: 'stop', model: 'm', latency_ms: 0 }),
    };
    await timeoutProvider(quick, 1000, timer.schedule).complete(request, context);
    expect(timer.pending).toBe(0);

    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const watching: Provider = {
      complete: (_request, _context, signal) =>
        new Promise((_resolve, reject) => {
          seen = signal;
          signal?.addEventListener('abort', () => reject(new Error('aborted by run')));
        }),
    };
    const call = timeoutProvider(watching, 1000, timer.schedule).complete(request, context, controller.signal);
    controller.abort();
    await expect(call).rejects.toThrow('aborted by run');
    expect(seen?.aborted).toBe(true);
  });
});
