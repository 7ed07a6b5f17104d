import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { parseUsdAmount } from './usd-amount.js';

describe('parseUsdAmount', () => {
  it('reads decimal dollars, with or without a leading $', () => {
    expect(['5', '0.50', '.5', '20.', '$5', ' 3 ', '0'].map((text) => parseUsdAmount(text, '--budget'))).toEqual([5, 0.5, 0.5, 20, 5, 3, 0]);
  });

  it('refuses negatives, words, commas, hex, exponents and nothing, naming the source', () => {
    for (const text of ['-1', 'abc', '5,00', '0x10', '0b11', '1e3', 'Infinity', '', '$', '$-1', '5$']) {
      expect(() => parseUsdAmount(text, 'PARLEY_BUDGET_USD'), text).toThrow(ConfigError);
      expect(() => parseUsdAmount(text, 'PARLEY_BUDGET_USD'), text).toThrow(`PARLEY_BUDGET_USD must be an amount of US dollars ≥ 0 (e.g. 5 or 0.50), got "${text}"`);
    }
  });
});
