import type { CompletionRequest, TokenUsage } from '@parley/core';
import { realSleep, type Sleep } from './sleep.js';

export interface RateLimits {
  /** Calls in flight at once. */
  concurrency?: number;
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

/** A granted call: `release` returns the slot and books the tokens the call really used. */
export interface RatePermit {
  release(usage?: TokenUsage): void;
}

const WINDOW_MS = 60_000;

/**
 * One provider's limits, shared by every scenario of a run: at most `concurrency` calls in
 * flight, and within any sliding minute at most `requestsPerMinute` calls and
 * `tokensPerMinute` tokens. Tokens are booked at the request's estimate when the call starts and
 * corrected to the real usage when it ends. Waiting uses the injected clock and sleeper, and an
 * aborted signal takes the waiter out of the queue.
 */
export class RateLimiter {
  private active = 0;
  private readonly queue: Array<() => void> = [];
  private readonly window: Array<{ at: number; tokens: number }> = [];

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: Sleep = realSleep,
  ) {}

  async acquire(estimatedTokens: number, signal?: AbortSignal): Promise<RatePermit> {
    await this.takeSlot(signal);
    try {
      const entry = await this.bookWindow(estimatedTokens, signal);
      let released = false;
      return {
        release: (usage) => {
          if (released) return;
          released = true;
          if (usage) entry.tokens = usage.input_tokens + usage.output_tokens;
          this.freeSlot();
        },
      };
    } catch (error) {
      this.freeSlot();
      throw error;
    }
  }

  /** Calls in flight now (for tests and progress). */
  get inFlight(): number {
    return this.active;
  }

  private async takeSlot(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const limit = this.limits.concurrency;
    if (limit === undefined || this.active < limit) {
      this.active += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const wake = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const index = this.queue.indexOf(wake);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(wake);
    });
    // The releasing call handed its slot over: `active` stays as it was.
  }

  private freeSlot(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.active -= 1;
  }

  private async bookWindow(estimatedTokens: number, signal?: AbortSignal): Promise<{ at: number; tokens: number }> {
    const { requestsPerMinute, tokensPerMinute } = this.limits;
    for (;;) {
      const now = this.now();
      while (this.window.length > 0 && this.window[0]!.at <= now - WINDOW_MS) this.window.shift();
      const used = this.window.reduce((sum, entry) => sum + entry.tokens, 0);
      const tooMany = requestsPerMinute !== undefined && this.window.length >= requestsPerMinute;
      // A single request larger than the whole budget still goes once the window is empty.
      const tooLarge = tokensPerMinute !== undefined && this.window.length > 0 && used + estimatedTokens > tokensPerMinute;
      if (!tooMany && !tooLarge) {
        const entry = { at: now, tokens: estimatedTokens };
        this.window.push(entry);
        return entry;
      }
      await this.sleep(Math.max(1, this.window[0]!.at + WINDOW_MS - now), signal);
    }
  }
}

/** A rough token count of a request (characters / 4), for booking tokens before the answer says. */
export function estimateTokens(request: CompletionRequest): number {
  let characters = request.system?.length ?? 0;
  for (const message of request.messages) {
    characters += message.content.length;
    if (message.role === 'assistant') characters += JSON.stringify(message.tool_calls ?? []).length;
  }
  return Math.max(1, Math.ceil(characters / 4)) + (request.max_tokens ?? 0);
}
