import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestMatch, damerauLevenshtein, didYouMean } from './did-you-mean.js';

describe('damerauLevenshtein', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['treshold', 'threshold', 1],
    ['thershold', 'threshold', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3],
  ])('%s → %s is %i', (left, right, distance) => {
    expect(damerauLevenshtein(left, right)).toBe(distance);
  });

  it('is symmetric and zero only for equal strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (left, right) => {
        const distance = damerauLevenshtein(left, right);
        expect(distance).toBe(damerauLevenshtein(right, left));
        expect(distance === 0).toBe(left === right);
      }),
    );
  });
});

describe('closestMatch', () => {
  it('suggests a key within two edits', () => {
    expect(closestMatch('treshold', ['metric', 'threshold', 'gate'])).toBe('threshold');
    expect(closestMatch('bookng', ['booking', 'booking_service'])).toBe('booking');
  });

  it('suggests a name the input is a prefix of', () => {
    expect(closestMatch('max', ['max_drop', 'min_floor'])).toBe('max_drop');
    expect(closestMatch('content', ['content_signals', 'tool_correctness'])).toBe('content_signals');
  });

  it('stays silent when nothing is close', () => {
    expect(closestMatch('persona', ['metric', 'threshold'])).toBeUndefined();
    expect(didYouMean('zz', ['metric'])).toBe('');
  });

  it('formats the suggestion for a message', () => {
    expect(didYouMean('tresholding', ['thresholding'])).toBe(' (did you mean "thresholding"?)');
  });
});
