import type { TokenUsage } from '@parley/core';

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Input read from the provider's prompt cache; else the input price times the model family's cache rate (cacheRates). */
  cached_input?: number;
}

/**
 * Built-in prices for common models (USD per million tokens, list prices as published by the
 * providers). A suite's `pricing:` overrides or extends them; a model in neither has an unknown
 * cost, which reports show as unknown and never as 0.
 */
const BUILT_IN_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4.1': { input: 2.0, output: 8.0 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10.0 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-5': { input: 1.25, output: 10.0 },
  'gpt-5-mini': { input: 0.25, output: 2.0 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'claude-opus-4-7': { input: 5.0, output: 25.0 },
  'claude-opus-4-5': { input: 5.0, output: 25.0 },
  'claude-sonnet-4-5': { input: 3.0, output: 15.0 },
  'claude-sonnet-4-6': { input: 3.0, output: 15.0 },
  'claude-haiku-4-5': { input: 1.0, output: 5.0 },
};

/** The price of a model: the suite's override first, then the built-in table, else undefined. */
function priceOf(model: string, overrides: Record<string, ModelPrice> = {}): ModelPrice | undefined {
  return overrides[model] ?? BUILT_IN_PRICES[model];
}

/**
 * What prompt caching does to the input price: tokens read from the cache cost this share of the
 * input price, tokens written to it this multiple (Anthropic: reads 0.1×, 5-minute writes 1.25×;
 * OpenAI: cached input 0.25× for the GPT-4.1 and GPT-5 families and o4-mini, 0.5× for GPT-4o and
 * the other o-series models). A suite's `pricing:` may give a model's `cached_input` price instead.
 */
function cacheRates(model: string): { read: number; write: number } {
  if (model.startsWith('claude')) return { read: 0.1, write: 1.25 };
  if (model.startsWith('gpt-4.1') || model.startsWith('gpt-5') || model.startsWith('o4-mini')) return { read: 0.25, write: 1 };
  return { read: 0.5, write: 1 };
}

/** USD per million tokens of input read from the cache and written to it: the suite's `cached_input` when it gives one. */
function cachePrices(model: string, price: ModelPrice): { read: number; write: number } {
  const rates = cacheRates(model);
  return { read: price.cached_input ?? price.input * rates.read, write: price.input * rates.write };
}

/** USD of one call, or null when the model's price is unknown. Cached input is priced as cached. */
export function costOfCall(model: string, usage: TokenUsage, overrides: Record<string, ModelPrice> = {}): number | null {
  const price = priceOf(model, overrides);
  if (!price) return null;
  const cached = usage.cached_input_tokens ?? 0;
  const written = usage.cache_write_input_tokens ?? 0;
  if (cached === 0 && written === 0) return (usage.input_tokens * price.input + usage.output_tokens * price.output) / 1_000_000;
  const cache = cachePrices(model, price);
  const plain = usage.input_tokens - cached - written;
  return (plain * price.input + cached * cache.read + written * cache.write + usage.output_tokens * price.output) / 1_000_000;
}

/** What prompt caching saved on one call (USD; 0 without cached tokens), or null when the price is unknown. */
export function cacheSavingOfCall(model: string, usage: TokenUsage, overrides: Record<string, ModelPrice> = {}): number | null {
  const price = priceOf(model, overrides);
  if (!price) return null;
  const cache = cachePrices(model, price);
  return ((usage.cached_input_tokens ?? 0) * (price.input - cache.read) - (usage.cache_write_input_tokens ?? 0) * (cache.write - price.input)) / 1_000_000;
}

/**
 * Prices of batch calls (OpenAI Batch, Anthropic Message Batches): half the normal price of every
 * known model, the suite's overrides included.
 */
export function batchPrices(overrides: Record<string, ModelPrice> = {}): Record<string, ModelPrice> {
  const prices: Record<string, ModelPrice> = {};
  for (const [model, price] of Object.entries({ ...BUILT_IN_PRICES, ...overrides })) {
    prices[model] = {
      input: price.input * BATCH_PRICE_FACTOR,
      output: price.output * BATCH_PRICE_FACTOR,
      ...(price.cached_input !== undefined ? { cached_input: price.cached_input * BATCH_PRICE_FACTOR } : {}),
    };
  }
  return prices;
}

/** The share of the normal price batch calls cost at both providers. */
const BATCH_PRICE_FACTOR = 0.5;
