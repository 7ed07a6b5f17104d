import { describe, expect, it } from 'vitest';
import { sparklineText, SPARK_GAP } from './sparkline.js';

describe('sparklineText', () => {
  it('draws 0 as the lowest and 1 as the highest block, unknown values as a gap', () => {
    expect(sparklineText([0, 0.5, 1, null], 10)).toBe(`▁▅█${SPARK_GAP}`);
  });

  it('keeps only the newest values that fit and clamps values outside the range', () => {
    expect(sparklineText([1, 1, 0, -0.4, 2], 3)).toBe('▁▁█');
    expect(sparklineText([-1, 0, 1], 3, { low: -1, high: 1 })).toBe('▁▅█');
  });

  it('is empty for no values', () => {
    expect(sparklineText([], 5)).toBe('');
  });
});
