import { ConfigError } from '@parley/core';
import { Option } from 'commander';

/** `--format text|json`: json prints one JSON document on stdout and nothing else there. */
export function formatOption(): Option {
  return new Option('--format <format>', 'text, or json on stdout').choices(['text', 'json']);
}

/**
 * A whole-number flag (`--limit 20`), at least `min` and at most `max` when given; anything else is
 * a configuration error naming the flag: `--limit must be a positive integer, got "0"`,
 * `--count must be a whole number from 1 to 100, got "500"`.
 */
export function integerFlag(name: string, text: string, min?: number, max?: number): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(value) || (min !== undefined && value < min) || (max !== undefined && value > max)) {
    throw new ConfigError(`${name} must be ${wholeNumber(min, max)}, got "${text}"`);
  }
  return value;
}

/**
 * A number flag from `min` to `max` (`--alpha 0.01`): `--alpha must be a number from 0 to 1, got "2"`;
 * without a `max`, `--max-bias must be a number ≥ 0, got "-1"`.
 */
export function numberFlag(name: string, text: string, min: number, max = Number.POSITIVE_INFINITY): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a number ${max === Number.POSITIVE_INFINITY ? `≥ ${min}` : `from ${min} to ${max}`}, got "${text}"`);
  }
  return value;
}

function wholeNumber(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `a whole number from ${min} to ${max}`;
  if (min === undefined) return max === undefined ? 'a whole number' : `a whole number ≤ ${max}`;
  return min === 1 ? 'a positive integer' : `a whole number ≥ ${min}`;
}
