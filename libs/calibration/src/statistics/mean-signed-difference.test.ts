import { describe, expect, it } from 'vitest';
import { meanSignedDifference } from './mean-signed-difference.js';

describe('meanSignedDifference', () => {
  it('is first − second on average (judge − human), undefined without pairs', () => {
    expect(meanSignedDifference([[5, 4], [4, 4], [5, 3]])).toBe(1);
    expect(meanSignedDifference([[2, 4], [4, 4]])).toBe(-1);
    expect(meanSignedDifference([])).toBeUndefined();
  });
});
