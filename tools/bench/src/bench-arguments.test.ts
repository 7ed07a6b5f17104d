import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZES, parseBenchArguments } from './bench-arguments.js';

describe('parseBenchArguments', () => {
  it('defaults to the three target sizes, three runs, Parley only', () => {
    expect(parseBenchArguments([])).toEqual({ sizes: DEFAULT_SIZES, runs: 3, promptfoo: false, floor: false, keep: false });
  });

  it('reads every option', () => {
    expect(parseBenchArguments(['--sizes', '1, 10_000', '--runs', '5', '--promptfoo', '--floor', '--json', 'out.json', '--keep'])).toEqual({
      sizes: [1, 10_000],
      runs: 5,
      promptfoo: true,
      floor: true,
      json: 'out.json',
      keep: true,
    });
  });

  it('refuses bad sizes, bad run counts and unknown flags', () => {
    expect(parseBenchArguments(['--sizes', '1,x'])).toHaveProperty('error');
    expect(parseBenchArguments(['--sizes', '0'])).toHaveProperty('error');
    expect(parseBenchArguments(['--runs', '0'])).toHaveProperty('error');
    expect(parseBenchArguments(['--fast'])).toHaveProperty('error');
  });
});
