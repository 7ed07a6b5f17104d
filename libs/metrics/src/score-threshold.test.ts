import { describe, expect, it } from 'vitest';
import { describeScore, meetsThreshold } from './score-threshold.js';

describe('describeScore', () => {
  it.each<[number, number, string]>([
    [0.75, 0.8, 'm 0.75 < 0.8'],
    [1, 0.8, 'm 1 ≥ 0.8'],
    [0.8, 0.8, 'm 0.8 ≥ 0.8'],
    [0.7999, 0.8, 'm 0.7999 < 0.8'],
    [2 / 3, 0.7, 'm 0.67 < 0.7'],
  ])('%d against %d', (score, threshold, text) => {
    expect(describeScore('m', score, threshold)).toBe(text);
  });
});

describe('meetsThreshold', () => {
  it('forgives floating-point dust below the threshold, nothing more', () => {
    expect(meetsThreshold((1 / 3) * 3 - 1e-12, 1)).toBe(true);
    expect(meetsThreshold(0.7999, 0.8)).toBe(false);
  });
});
