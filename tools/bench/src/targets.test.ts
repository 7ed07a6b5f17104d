import { describe, expect, it } from 'vitest';
import { describeTarget, REPLAY_TARGETS, verdictOf } from './targets.js';

describe('verdictOf', () => {
  const thousand = REPLAY_TARGETS.get(1_000);

  it('is ok within both bounds and over past either', () => {
    expect(verdictOf(thousand, 1.4, 200)).toBe('ok');
    expect(verdictOf(thousand, 1.6, 200)).toBe('over');
    expect(verdictOf(thousand, 1.4, 260)).toBe('over');
  });

  it('counts a missing memory figure as over when memory has a bound, and judges nothing without a target', () => {
    expect(verdictOf(thousand, 1, undefined)).toBe('over');
    expect(verdictOf(REPLAY_TARGETS.get(1), 0.2, undefined)).toBe('ok');
    expect(verdictOf(undefined, 100, 10_000)).toBe('-');
  });
});

describe('describeTarget', () => {
  it('names each bound', () => {
    expect(describeTarget(REPLAY_TARGETS.get(10_000))).toBe('≤ 10 s, ≤ 400 MiB');
    expect(describeTarget(REPLAY_TARGETS.get(1))).toBe('≤ 0.25 s');
    expect(describeTarget(undefined)).toBe('-');
  });
});
