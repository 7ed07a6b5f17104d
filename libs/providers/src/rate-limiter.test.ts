import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

/** A clock that only moves when the limiter sleeps: sleeping advances it, so tests never wait. */
function virtualTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleeps,
    sleep: async (milliseconds: number) => {
      sleeps.push(milliseconds);
      now += milliseconds;
    },
  };
}

describe('RateLimiter', () => {
  it('never lets more than `concurrency` calls run at once, and hands slots over in order', async () => {
    const limiter = new RateLimiter({ concurrency: 2 });
    const order: string[] = [];
    const first = await limiter.acquire(1);
    const second = await limiter.acquire(1);
    const third = limiter.acquire(1).then((permit) => {
      order.push('third');
      return permit;
    });
    const fourth = limiter.acquire(1).then((permit) => {
      order.push('fourth');
      return permit;
    });
    await Promise.resolve();
    expect(limiter.inFlight).toBe(2);
    expect(order).toEqual([]);
    first.release();
    (await third).release();
    second.release();
    (await fourth).release();
    expect(order).toEqual(['third', 'fourth']);
    expect(limiter.inFlight).toBe(0);
  });

  it('holds the call past the requests-per-minute limit until the oldest leaves the minute', async () => {
    const time = virtualTime();
    const limiter = new RateLimiter({ requestsPerMinute: 2 }, time.now, time.sleep);
    (await limiter.acquire(1)).release();
    time.sleep(10_000);
    (await limiter.acquire(1)).release();
    (await limiter.acquire(1)).release();
    expect(time.sleeps).toEqual([10_000, 50_000]);
  });

  it('counts the tokens calls really used against tokens per minute', async () => {
    const time = virtualTime();
    const limiter = new RateLimiter({ tokensPerMinute: 1000 }, time.now, time.sleep);
    (await limiter.acquire(100)).release({ input_tokens: 700, output_tokens: 200 });
    (await limiter.acquire(50)).release({ input_tokens: 50, output_tokens: 0 }); // 900 + 50 fits
    expect(time.sleeps).toEqual([]);
    (await limiter.acquire(100)).release(); // 950 + 100 does not: wait for the first call to leave the minute
    expect(time.sleeps).toEqual([60_000]);
  });

  it('takes an aborted waiter out of the queue', async () => {
    const limiter = new RateLimiter({ concurrency: 1 });
    const held = await limiter.acquire(1);
    const controller = new AbortController();
    const waiting = limiter.acquire(1, controller.signal);
    controller.abort(new Error('Ctrl-C'));
    await expect(waiting).rejects.toThrow('Ctrl-C');
    held.release();
    expect(limiter.inFlight).toBe(0);
    (await limiter.acquire(1)).release();
  });
});
