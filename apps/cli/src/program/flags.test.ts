import { isConfigError } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { integerFlag, numberFlag } from './flags.js';

function refusal(parse: () => number): string {
  try {
    parse();
  } catch (error) {
    expect(isConfigError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('the one parser of number flags', () => {
  it('integerFlag: whole numbers within the bounds given, the flag and the bounds named otherwise', () => {
    expect(integerFlag('--count', '5', 1, 100)).toBe(5);
    expect(refusal(() => integerFlag('--count', '500', 1, 100))).toBe('--count must be a whole number from 1 to 100, got "500"');
    expect(refusal(() => integerFlag('--count', '2.5', 1, 100))).toBe('--count must be a whole number from 1 to 100, got "2.5"');
    expect(refusal(() => integerFlag('--resamples', '0', 1))).toBe('--resamples must be a positive integer, got "0"');
    expect(refusal(() => integerFlag('--seed', ''))).toBe('--seed must be a whole number, got ""');
    expect(integerFlag('--seed', '-3')).toBe(-3);
  });

  it('numberFlag: a range, or a lower bound only', () => {
    expect(numberFlag('--min-kappa', '-0.5', -1, 1)).toBe(-0.5);
    expect(refusal(() => numberFlag('--min-kappa', 'high', -1, 1))).toBe('--min-kappa must be a number from -1 to 1, got "high"');
    expect(refusal(() => numberFlag('--max-bias', '-1', 0))).toBe('--max-bias must be a number ≥ 0, got "-1"');
    expect(numberFlag('--max-bias', '0.3', 0)).toBe(0.3);
  });
});
