import type { Status } from '@parley/core';

/** `width` cells of a bar filled to `fraction` (clamped to 0…1). */
export function progressBar(fraction: number, width: number): string {
  const cells = Math.max(0, Math.floor(width));
  const filled = Math.round(Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0)) * cells);
  return '█'.repeat(filled) + '░'.repeat(cells - filled);
}

/** `m:ss` (or `h:mm:ss` from an hour on). */
export function formatElapsed(milliseconds: number): string {
  const total = Math.max(0, Math.floor(milliseconds / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** Dollars with four decimals, as the reports print them. */
export function formatUsd(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

/** `7 pass · 1 fail`: the statuses that occur, in the reports' order; `none yet` when nothing finished. */
export function describeCounts(counts: Record<Status, number>): string {
  const parts = Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`);
  return parts.length > 0 ? parts.join(' · ') : 'none finished yet';
}

/** One-character mark of a status, beside its word (colour is never the only signal). */
export const STATUS_MARKS: Record<Status, string> = {
  pass: '✓',
  fail: '✗',
  error: '✗',
  warn: '!',
  flaky: '~',
  skipped: '-',
};

/** `path` relative to `cwd` when inside it. */
export function displayPath(path: string, cwd: string): string {
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}
