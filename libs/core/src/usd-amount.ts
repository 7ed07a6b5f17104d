import { ConfigError } from './config-error.js';

/** Whole dollars and an optional fraction, as people write an amount: `5`, `0.50`, `.5`, `20.`, and `$5`. */
const USD_AMOUNT = /^\$?(?:\d+\.?\d*|\.\d+)$/;

/**
 * A spending limit a person typed (`--budget`, `PARLEY_BUDGET_USD`): US dollars ≥ 0 in decimal,
 * optionally written with a leading `$`. Anything else (`-1`, `abc`, `5,00`, `0x10`, `1e3`, empty)
 * is a ConfigError naming where it came from, the same for every command that takes a budget.
 *
 * @example parseUsdAmount('$0.50', '--budget') // 0.5
 * @throws ConfigError when the text is not such an amount
 */
export function parseUsdAmount(text: string, source: string): number {
  const trimmed = text.trim();
  const value = Number(trimmed.replace(/^\$/, ''));
  if (!USD_AMOUNT.test(trimmed) || !Number.isFinite(value)) {
    throw new ConfigError(`${source} must be an amount of US dollars ≥ 0 (e.g. 5 or 0.50), got "${text}"`);
  }
  return value;
}
