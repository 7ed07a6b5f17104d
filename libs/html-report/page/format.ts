import type { RunStatus } from '@parley/core';

/** Each status as an icon and a word, so it reads without colour (and is announced as text). */
export const STATUS_ICON: Record<RunStatus, string> = {
  fail: '✗',
  error: '⚠',
  flaky: '≈',
  warn: '!',
  pass: '✓',
  skipped: '–',
  interrupted: '■',
};

export function usd(value: number | null | undefined): string {
  if (value === null || value === undefined) return 'unknown';
  if (value === 0) return '$0';
  return value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 120) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

/** A score in [0, 1] with two decimals; `–` without one. */
export function score(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : trimNumber(value, 2);
}

export function signed(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined) return '–';
  const text = Math.abs(value).toFixed(digits);
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : `±${text}`;
}

export function trimNumber(value: number, digits: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(digits).replace(/0+$/, '').replace(/\.$/, '');
}

/** κ and other measures with three decimals; `undefined` where the report has null (0/0). */
export function measure(value: number | null | undefined): string {
  return value === null || value === undefined ? 'undefined' : value.toFixed(3);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
