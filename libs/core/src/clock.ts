/** Time, injected so that tests never sleep and reports can be made deterministic. */
export interface Clock {
  /** Wall-clock time for timestamps. */
  now(): Date;
  /** Monotonic milliseconds for measuring durations. */
  monotonicMs(): number;
}

export const systemClock: Clock = {
  now: () => new Date(),
  monotonicMs: () => performance.now(),
};

/** A clock that only moves when told to. */
export function manualClock(start = new Date('2026-01-01T00:00:00Z')): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => new Date(start.getTime() + offset),
    monotonicMs: () => offset,
    advance(ms: number) {
      offset += ms;
    },
  };
}
