import { describe, expect, it } from 'vitest';
import type { RunSpend } from './model-spend-store.js';
import { NOT_ITEMISED, summarizeSpend } from './spend-summary.js';

const model = (name: string, usd: number, calls = 2, cached = 0, written = 0) => ({
  provider: 'anthropic',
  model: name,
  role: 'judge',
  calls,
  input_tokens: 1000,
  output_tokens: 100,
  cost_usd: usd,
  unpriced_calls: 0,
  cached_input_tokens: cached,
  cache_write_input_tokens: written,
  // claude-opus-4-7 input is $5 per million; a cache read saves 0.9 of it.
  cache_saving_usd: (cached * 0.9 * 5) / 1e6,
});

const runs: RunSpend[] = [
  { run_id: 'r1', suite: 'booking', mode: 'live', started_at: '2026-10-30T09:00:00.000Z', cost_usd: 1.5, models: [model('claude-opus-4-7', 1), model('claude-haiku-4-5', 0.5)] },
  { run_id: 'r2', suite: 'booking', mode: 'live', started_at: '2026-11-02T09:00:00.000Z', cost_usd: 2, models: [model('claude-opus-4-7', 2, 2, 800, 300)] },
  // Before per-model spend was recorded: its total, not itemised.
  { run_id: 'r3', suite: 'municipal', mode: 'record', started_at: '2026-11-03T09:00:00.000Z', cost_usd: 0.25, models: [] },
  // A replay pays no provider, whatever its priced total says.
  { run_id: 'r4', suite: 'municipal', mode: 'replay', started_at: '2026-11-04T09:00:00.000Z', cost_usd: 0.7, models: [] },
];

describe('summarizeSpend', () => {
  it('adds up spend by suite, model and month', () => {
    const summary = summarizeSpend(runs);
    expect(summary.total_usd).toBeCloseTo(3.75, 10);
    expect(summary.runs).toBe(4);
    expect(summary.by_suite).toEqual([
      { suite: 'booking', runs: 2, usd: 3.5 },
      { suite: 'municipal', runs: 2, usd: 0.25 },
    ]);
    expect(summary.by_model.map((row) => [row.model, row.usd, row.calls, row.cached_input_tokens, row.cache_write_input_tokens])).toEqual([
      ['claude-opus-4-7', 3, 4, 800, 300],
      ['claude-haiku-4-5', 0.5, 2, 0, 0],
      [NOT_ITEMISED, 0.25, 0, 0, 0],
    ]);
    expect(summary.cache_saving_usd).toBeCloseTo(0.0036, 12);
    expect(summary.by_month).toEqual([
      { month: '2026-10', runs: 1, usd: 1.5 },
      { month: '2026-11', runs: 3, usd: 2.25 },
    ]);
  });

  it('is all zeros for no runs', () => {
    expect(summarizeSpend([])).toEqual({
      total_usd: 0,
      cache_saving_usd: 0,
      batch_saving_usd: 0,
      runs: 0,
      by_source: ['runs', 'monitor', 'calibration'].map((source) => ({ source, calls: 0, usd: 0, unpriced_calls: 0 })),
      by_suite: [],
      by_model: [],
      by_month: [],
    });
  });

  it('adds judge spend outside runs as its own sources, to the models and months, with batch savings apart', () => {
    const row = { provider: 'openai', model: 'gpt-4.1', calls: 2, input_tokens: 2000, output_tokens: 80, cost_usd: 0.00232, unpriced_calls: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, cache_saving_usd: 0, batch_saving_usd: 0.00232 };
    const summary = summarizeSpend([], [
      { ...row, source: 'monitor', suite: 'zuri', spent_at: '2026-11-02T10:00:00.000Z' },
      { ...row, source: 'calibration', suite: 'calibration', spent_at: '2026-12-01T10:00:00.000Z', batch_saving_usd: 0 },
    ]);
    expect(summary.total_usd).toBeCloseTo(0.00464, 12);
    expect(summary.batch_saving_usd).toBeCloseTo(0.00232, 12);
    expect(summary.by_source.map((source) => [source.source, source.calls])).toEqual([['runs', 0], ['monitor', 2], ['calibration', 2]]);
    expect(summary.by_model).toEqual([expect.objectContaining({ model: 'gpt-4.1', calls: 4, input_tokens: 4000 })]);
    expect(summary.by_month).toEqual([{ month: '2026-11', runs: 0, usd: 0.00232 }, { month: '2026-12', runs: 0, usd: 0.00232 }]);
    expect(summary.by_suite).toEqual([]);
  });
});
