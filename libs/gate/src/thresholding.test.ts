import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDING, resolveThresholding } from './thresholding.js';

describe('resolveThresholding', () => {
  it('falls back to the defaults', () => {
    expect(resolveThresholding()).toEqual(DEFAULT_THRESHOLDING);
    expect(DEFAULT_THRESHOLDING).toEqual({ mode: 'relative', max_drop: 0.05, min_floor: null });
  });

  it('takes the suite default', () => {
    expect(resolveThresholding({ max_drop: 0.03, min_floor: 0.8 })).toEqual({ mode: 'relative', max_drop: 0.03, min_floor: 0.8 });
  });

  it('lets an expectation override field by field, keeping the rest of the suite default', () => {
    expect(resolveThresholding({ mode: 'relative', max_drop: 0.03, min_floor: 0.8 }, { max_drop: 0.1 })).toEqual({
      mode: 'relative',
      max_drop: 0.1,
      min_floor: 0.8,
    });
    expect(resolveThresholding({ max_drop: 0.03 }, { mode: 'absolute' })).toEqual({ mode: 'absolute', max_drop: 0.03, min_floor: null });
  });

  it('keeps an explicit zero', () => {
    expect(resolveThresholding({ max_drop: 0.05 }, { max_drop: 0 }).max_drop).toBe(0);
  });
});
