import { describe, expect, it } from 'vitest';
import { exactAgreement } from './exact-agreement.js';

describe('exactAgreement', () => {
  it('is the share of equal pairs, undefined without pairs', () => {
    expect(exactAgreement([[4, 4], [3, 4], [5, 5], [1, 2]])).toBe(0.5);
    expect(exactAgreement([])).toBeUndefined();
  });
});
