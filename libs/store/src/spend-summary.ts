import type { JudgeSpendEntry } from './judge-spend-store.js';
import type { ModelSpend, RunSpend } from './model-spend-store.js';

/** The model a run's spend is filed under when it was not recorded per model. */
export const NOT_ITEMISED = '(not itemised)';

export interface SpendSummary {
  /** Runs, `parley monitor` and `parley calibrate judge` together. */
  total_usd: number;
  /** What prompt caching saved, over every itemised call. */
  cache_saving_usd: number;
  /** What batch prices (`parley monitor --batch`) saved against the normal ones. */
  batch_saving_usd: number;
  runs: number;
  /** The spend by where it was made: runs, monitor (judge calls of `parley monitor`), calibration (`parley calibrate judge`). */
  by_source: Array<{ source: 'runs' | 'monitor' | 'calibration'; calls: number; usd: number; unpriced_calls: number }>;
  /** Runs only. */
  by_suite: Array<{ suite: string; runs: number; usd: number }>;
  by_model: Array<{ provider: string; model: string; calls: number; input_tokens: number; output_tokens: number; cached_input_tokens: number; cache_write_input_tokens: number; cache_saving_usd: number; usd: number; unpriced_calls: number }>;
  /** `YYYY-MM` of each run's start, UTC (monitor and calibration spend by when it was made; `runs` counts runs). */
  by_month: Array<{ month: string; runs: number; usd: number }>;
}

/**
 * Adds up what runs spent, by suite, by model and by month. A run's spend is the sum of its
 * per-model rows; a run without them (made before Parley recorded spend per model, or read from a
 * report folder) counts its total under the model "(not itemised)" unless it replayed everything
 * (a replay pays no provider). Runs that paid nothing still count as runs of their suite and month.
 *
 * A merged run (`parley merge-reports`) paid nothing itself: its total is its shards' spend. Shards
 * among `runs` count on their own, so the merged run adds only what its other shards spent (shards
 * that ran elsewhere, e.g. on other CI machines): its total less the shards present, never below 0.
 *
 * Judge spend outside runs (`outside`: `parley monitor`, `parley calibrate judge`) adds to the
 * total, the models and the months, each as its own source; what monitor's batch prices saved is
 * summed apart from the prompt-cache saving.
 */
export function summarizeSpend(runs: readonly RunSpend[], outside: readonly JudgeSpendEntry[] = []): SpendSummary {
  const suites = new Map<string, { runs: number; usd: number }>();
  const months = new Map<string, { runs: number; usd: number }>();
  const models = new Map<string, SpendSummary['by_model'][number]>();
  let total = 0;
  let saving = 0;
  let batchSaving = 0;
  const sources = new Map<'runs' | 'monitor' | 'calibration', { calls: number; usd: number; unpriced_calls: number }>(
    (['runs', 'monitor', 'calibration'] as const).map((source) => [source, { calls: 0, usd: 0, unpriced_calls: 0 }]),
  );
  const byId = new Map(runs.map((run) => [run.run_id, run]));
  for (const run of runs) {
    const unitemised = unitemisedUsd(run, byId);
    const rows: ModelSpend[] =
      run.models.length > 0
        ? run.models
        : run.mode !== 'replay' && (unitemised > 0 || (run.unpriced_calls ?? 0) > 0)
          ? [{ provider: '', model: NOT_ITEMISED, role: '', calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: unitemised, unpriced_calls: run.unpriced_calls ?? 0, cached_input_tokens: 0, cache_saving_usd: 0, cache_write_input_tokens: 0 }]
          : [];
    const usd = rows.reduce((sum, row) => sum + row.cost_usd, 0);
    total += usd;
    add(suites, run.suite, usd);
    add(months, run.started_at.slice(0, 7), usd);
    for (const row of rows) {
      addModel(models, row);
      saving += row.cache_saving_usd;
      addSource(sources, 'runs', row);
    }
  }
  for (const row of outside) {
    total += row.cost_usd;
    saving += row.cache_saving_usd;
    batchSaving += row.batch_saving_usd;
    addModel(models, row);
    addSource(sources, row.source, row);
    const month = months.get(row.spent_at.slice(0, 7)) ?? { runs: 0, usd: 0 };
    month.usd += row.cost_usd;
    months.set(row.spent_at.slice(0, 7), month);
  }
  return {
    total_usd: total,
    cache_saving_usd: saving,
    batch_saving_usd: batchSaving,
    runs: runs.length,
    by_source: [...sources].map(([source, value]) => ({ source, ...value })),
    by_suite: [...suites].map(([suite, value]) => ({ suite, ...value })).sort((left, right) => right.usd - left.usd || left.suite.localeCompare(right.suite)),
    by_model: [...models.values()].sort((left, right) => right.usd - left.usd || left.model.localeCompare(right.model)),
    by_month: [...months].map(([month, value]) => ({ month, ...value })).sort((left, right) => left.month.localeCompare(right.month)),
  };
}

/** A run's total where it has no per-model rows; for a merged run, less what its shards among the runs spent. */
function unitemisedUsd(run: RunSpend, byId: ReadonlyMap<string, RunSpend>): number {
  const total = run.cost_usd ?? 0;
  if (run.merged_from === undefined) return total;
  const present = run.merged_from.flatMap((id) => {
    const shard = byId.get(id);
    return shard === undefined ? [] : [shard];
  });
  const counted = present.reduce((sum, shard) => sum + (shard.models.length > 0 ? shard.models.reduce((rows, row) => rows + row.cost_usd, 0) : (shard.cost_usd ?? 0)), 0);
  // Rounding of the shards' sums must not leave a few nano-dollars counted twice.
  return Math.max(0, total - counted) < 1e-9 ? 0 : total - counted;
}

function addModel(models: Map<string, SpendSummary['by_model'][number]>, row: Omit<ModelSpend, 'role'>): void {
  const key = `${row.provider}\u0000${row.model}`;
  const entry = models.get(key) ?? { provider: row.provider, model: row.model, calls: 0, input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, cache_saving_usd: 0, usd: 0, unpriced_calls: 0 };
  entry.calls += row.calls;
  entry.cached_input_tokens += row.cached_input_tokens;
  entry.cache_write_input_tokens += row.cache_write_input_tokens;
  entry.cache_saving_usd += row.cache_saving_usd;
  entry.input_tokens += row.input_tokens;
  entry.output_tokens += row.output_tokens;
  entry.usd += row.cost_usd;
  entry.unpriced_calls += row.unpriced_calls;
  models.set(key, entry);
}

function addSource(sources: Map<SpendSummary['by_source'][number]['source'], { calls: number; usd: number; unpriced_calls: number }>, source: SpendSummary['by_source'][number]['source'], row: { calls: number; cost_usd: number; unpriced_calls: number }): void {
  const entry = sources.get(source) ?? { calls: 0, usd: 0, unpriced_calls: 0 };
  entry.calls += row.calls;
  entry.usd += row.cost_usd;
  entry.unpriced_calls += row.unpriced_calls;
  sources.set(source, entry);
}

function add(map: Map<string, { runs: number; usd: number }>, key: string, usd: number): void {
  const entry = map.get(key) ?? { runs: 0, usd: 0 };
  entry.runs += 1;
  entry.usd += usd;
  map.set(key, entry);
}
