import { describe, expect, it } from 'vitest';
import { seededRandom, systemRandom } from './random.js';

describe('seededRandom', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    const first = seededRandom(42);
    const second = seededRandom(42);
    const sequence = [first.next(), first.next(), first.hex(8)];
    expect([second.next(), second.next(), second.hex(8)]).toEqual(sequence);
    expect(seededRandom(43).next()).not.toBe(sequence[0]);
  });

  it('produces floats in [0, 1) and hex of the asked length', () => {
    const random = seededRandom(7);
    for (let index = 0; index < 1000; index += 1) {
      const value = random.next();
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
    expect(random.hex(13)).toMatch(/^[0-9a-f]{13}$/);
    expect(systemRandom().hex(8)).toMatch(/^[0-9a-f]{8}$/);
  });
});
