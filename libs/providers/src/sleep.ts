import { setTimeout as wait } from 'node:timers/promises';

/**
 * Waits `milliseconds`, or rejects with the signal's reason when it is aborted first. Injected
 * into the retry and rate-limit layers so tests never sleep.
 */
export type Sleep = (milliseconds: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = async (milliseconds, signal) => {
  await wait(milliseconds, undefined, signal ? { signal } : {});
};

/**
 * Schedules `callback` after `milliseconds` and returns a function that cancels it. The timeout
 * layer takes one so that a test can fire a timeout the moment a call hangs, without waiting.
 */
export type Schedule = (milliseconds: number, callback: () => void) => () => void;

export const realSchedule: Schedule = (milliseconds, callback) => {
  const timer = setTimeout(callback, milliseconds);
  return () => clearTimeout(timer);
};
