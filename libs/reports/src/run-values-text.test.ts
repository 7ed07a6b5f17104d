import { describe, expect, it } from 'vitest';
import { formatDuration, formatStartTime, formatUsd, oneLine, runSelection } from './run-values-text.js';

describe('formatUsd', () => {
  it('keeps small amounts readable and never shows unknown as zero', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.0042)).toBe('$0.0042');
    expect(formatUsd(12.345)).toBe('$12.35');
    expect(formatUsd(null)).toBe('unknown');
    expect(formatUsd(undefined)).toBe('-');
  });
});

describe('formatDuration', () => {
  it('picks the unit by size', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(184_000)).toBe('3 m 04 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 m');
    expect(formatDuration(undefined)).toBe('-');
  });
});

describe('formatStartTime', () => {
  it('shows UTC minutes whatever the offset of the stored time, and a non-date as it is', () => {
    expect(formatStartTime('2026-11-26T15:04:59+03:00')).toBe('2026-11-26 12:04');
    expect(formatStartTime('yesterday')).toBe('yesterday');
  });
});

describe('oneLine', () => {
  it('keeps short single lines and cuts the rest with an ellipsis', () => {
    expect(oneLine('short', 10)).toBe('short');
    expect(oneLine('exactly 10', 10)).toBe('exactly 10');
    expect(oneLine('a bit too long', 10)).toBe('a bit too…');
    expect(oneLine('first\nsecond', 20)).toBe('first…');
    expect(oneLine('😀😀😀😀', 3)).toBe('😀😀…');
  });
});

describe('runSelection', () => {
  it('names the flags that ran part of the suite, and nothing for a whole run', () => {
    expect(runSelection({ suite: '.', mode: 'replay', concurrency: 4 })).toBeUndefined();
    expect(runSelection({ scenario: ['spa_*', 'x'], tag: ['sw'], shard: '1/3' })).toBe('--scenario spa_* --scenario x --tag sw --shard 1/3');
    expect(runSelection({ last_failed: ['a', 'b@other'] })).toBe('--last-failed (2 cases)');
    expect(runSelection({ changed_since: 'main', grep: ['mpesa'], exclude: ['slow_*'] })).toBe('--exclude slow_* --grep mpesa --changed-since main');
  });
});
