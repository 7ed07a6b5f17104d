import { openDatabase } from './open-database.js';

/** What one run paid one model in one role: the sum of its calls that went to the provider. */
export interface ModelSpend {
  provider: string;
  model: string;
  /** agent, simulator or judge. */
  role: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  /** USD of the priced calls. */
  cost_usd: number;
  /** Calls whose model has no known price (their cost is not in cost_usd). */
  unpriced_calls: number;
  /** Of the input tokens, those read from the provider's prompt cache. */
  cached_input_tokens: number;
  /** What the prompt cache saved on the priced calls (USD). */
  cache_saving_usd: number;
}

/** A run with what it spent, per model when the run recorded that. */
export interface RunSpend {
  run_id: string;
  suite: string;
  mode: string;
  started_at: string;
  /** The run's total as finishRun stored it; null when unknown or the run never finished. */
  cost_usd: number | null;
  /** Empty for runs made before Parley recorded spend per model, and for runs that paid nothing. */
  models: ModelSpend[];
  /**
   * Set for a run `parley merge-reports` made: the run ids of the shards it merged. It called no
   * model itself; its total is what its shards spent (see summarizeSpend).
   */
  merged_from?: string[];
}

export interface ModelSpendStore {
  /** Adds a run's spend (a resumed run adds to what it had). */
  add(runId: string, spend: readonly ModelSpend[]): void;
  /** Runs started at or after `since` (ISO 8601), oldest first, with their per-model spend. */
  runsSince(since: string): RunSpend[];
  close(): void;
}

/** Opens (creating and migrating it when needed) the per-model spend of the database at `path`. */
export function openModelSpend(path: string): ModelSpendStore {
  const database = openDatabase(path);
  const upsert = database.prepare<[{ run_id: string } & ModelSpend]>(`
    INSERT INTO model_spend (run_id, provider, model, role, calls, input_tokens, output_tokens, cost_usd, unpriced_calls, cached_input_tokens, cache_saving_usd)
    VALUES (@run_id, @provider, @model, @role, @calls, @input_tokens, @output_tokens, @cost_usd, @unpriced_calls, @cached_input_tokens, @cache_saving_usd)
    ON CONFLICT (run_id, provider, model, role) DO UPDATE SET
      calls = calls + excluded.calls, input_tokens = input_tokens + excluded.input_tokens,
      output_tokens = output_tokens + excluded.output_tokens, cost_usd = cost_usd + excluded.cost_usd,
      unpriced_calls = unpriced_calls + excluded.unpriced_calls,
      cached_input_tokens = cached_input_tokens + excluded.cached_input_tokens, cache_saving_usd = cache_saving_usd + excluded.cache_saving_usd`);
  const addAll = database.transaction((runId: string, spend: readonly ModelSpend[]) => {
    for (const row of spend) upsert.run({ run_id: runId, ...row });
  });
  const runs = database.prepare<[string], Omit<RunSpend, 'models' | 'merged_from'> & { options_json: string }>(
    'SELECT id AS run_id, suite, mode, started_at, cost_usd, options_json FROM runs WHERE started_at >= ? ORDER BY started_at, id',
  );
  const spendRows = database.prepare<[string], { run_id: string } & ModelSpend>(`
    SELECT s.run_id, s.provider, s.model, s.role, s.calls, s.input_tokens, s.output_tokens, s.cost_usd, s.unpriced_calls, s.cached_input_tokens, s.cache_saving_usd
    FROM model_spend s JOIN runs r ON r.id = s.run_id WHERE r.started_at >= ? ORDER BY s.provider, s.model, s.role`);
  return {
    add(runId, spend) {
      addAll(runId, spend);
    },
    runsSince(since) {
      const byRun = new Map<string, ModelSpend[]>();
      for (const { run_id: runId, ...row } of spendRows.all(since)) {
        const list = byRun.get(runId);
        if (list) list.push(row);
        else byRun.set(runId, [row]);
      }
      return runs.all(since).map(({ options_json: options, ...run }) => {
        const merged = mergedFrom(options);
        return { ...run, models: byRun.get(run.run_id) ?? [], ...(merged ? { merged_from: merged } : {}) };
      });
    },
    close() {
      database.close();
    },
  };
}

/** The shard run ids of a merged run's options (`merged_from`), else undefined. */
function mergedFrom(optionsJson: string): string[] | undefined {
  const options: unknown = JSON.parse(optionsJson);
  if (typeof options !== 'object' || options === null || !('merged_from' in options)) return undefined;
  const ids = (options as { merged_from: unknown }).merged_from;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : undefined;
}
