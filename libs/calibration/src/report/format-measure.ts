import type { Measured } from './agreement-summary.js';

/** A statistic for people: three decimals, or "undefined" where it is 0/0 (never 0, 1 or NaN). */
export function formatMeasure(value: Measured | undefined, digits = 3): string {
  return value === null || value === undefined ? 'undefined' : value.toFixed(digits);
}

/** A bias in rating points, with its sign. */
export function formatBias(value: Measured | undefined): string {
  if (value === null || value === undefined) return 'undefined';
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(2)}`;
}

/** `[0.612, 0.840]`, or undefined. */
export function formatInterval(interval: { low: Measured; high: Measured } | undefined, digits = 3): string {
  if (interval === undefined || interval.low === null || interval.high === null) return 'undefined';
  return `[${interval.low.toFixed(digits)}, ${interval.high.toFixed(digits)}]`;
}
