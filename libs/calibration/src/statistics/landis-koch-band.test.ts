import { describe, expect, it } from 'vitest';
import { landisKochBand } from './landis-koch-band.js';

describe('landisKochBand', () => {
  it('names the Landis–Koch bands at their edges', () => {
    expect(landisKochBand(-0.01)).toBe('poor');
    expect(landisKochBand(0)).toBe('slight');
    expect(landisKochBand(0.2)).toBe('slight');
    expect(landisKochBand(0.21)).toBe('fair');
    expect(landisKochBand(0.4)).toBe('fair');
    expect(landisKochBand(0.6)).toBe('moderate');
    expect(landisKochBand(0.61)).toBe('substantial');
    expect(landisKochBand(0.8)).toBe('substantial');
    expect(landisKochBand(0.81)).toBe('almost perfect');
    expect(landisKochBand(1)).toBe('almost perfect');
    expect(landisKochBand(undefined)).toBeUndefined();
  });
});
