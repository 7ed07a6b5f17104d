import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crossCheckSample } from './cross-check-sample.js';

const fifty = Array.from({ length: 50 }, (_, index) => `scenario_${String(index).padStart(2, '0')}`);

describe('crossCheckSample', () => {
  it('takes exactly 5 of 50 at 10%, the same 5 for the same seed, whatever the order of the ids', () => {
    const sample = crossCheckSample(fifty, 0.1, 42);
    expect(sample.size).toBe(5);
    expect(crossCheckSample([...fifty].reverse(), 0.1, 42)).toEqual(sample);
    expect(crossCheckSample(fifty, 0.1, 43)).not.toEqual(sample);
  });

  it('rounds up, so a small suite with a sample still gets a cross-check, and 0 takes none', () => {
    expect(crossCheckSample(fifty.slice(0, 8), 0.1, 1).size).toBe(1);
    expect(crossCheckSample(fifty, 0, 1).size).toBe(0);
    expect(crossCheckSample(fifty, 1, 1).size).toBe(50);
    // 0.07 × 100 is 7.000000000000001 in floating point: still 7.
    expect(crossCheckSample(Array.from({ length: 100 }, (_, index) => `s${index}`), 0.07, 1).size).toBe(7);
  });

  it('always has ceil(fraction × n) members, all of them ids (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 60 }), fc.integer({ min: 0, max: 100 }), fc.integer(), (ids, percent, seed) => {
        const sample = crossCheckSample(ids, percent / 100, seed);
        expect(sample.size).toBe(Math.ceil((percent * ids.length) / 100));
        for (const id of sample) expect(ids).toContain(id);
      }),
    );
  });
});
