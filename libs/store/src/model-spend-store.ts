import { openSql } from './open-sql.js';
import type { SqlRow } from './sql/sync-sql.js';

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
  /** Of the input tokens, those written to the provider's prompt cache (Anthropic, at a premium). */
  cache_write_input_tokens: number;
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
  /**
   * For a run read from a report folder whose cost is unknown: its calls to models without a price.
   * `cost_usd` is then what its priced calls cost, so `parley cost` neither drops the run to $0 nor
   * hides that part of its spend is not counted.
   */
  unpriced_calls?: number;
}

export interface ModelSpendStore {
  /** Adds a run's spend (a resumed run adds to what it had). */
  add(runId: string, spend: readonly ModelSpend[]): void;
  /** Runs started at or after `since` (ISO 8601), oldest first, with their per-model spend. */
  runsSince(since: string): RunSpend[];
  close(): void;
}

/** Rows per INSERT: 12 parameters each, far under either database's limit on parameters. */
const ROWS_PER_INSERT = 100;

/** Opens the per-model spend of the store at `path` (PostgreSQL when PARLEY_DATABASE_URL names one). */
export function openModelSpend(path: string): ModelSpendStore {
  const sql = openSql(path);
  return {
    add(runId, spend) {
      if (spend.length === 0) return;
      sql.transaction(() => {
        for (let start = 0; start < spend.length; start += ROWS_PER_INSERT) {
          const chunk = spend.slice(start, start + ROWS_PER_INSERT);
          // One row per (run, provider, model, role) within a statement: ON CONFLICT cannot touch a row twice.
          const merged = new Map<string, ModelSpend>();
          for (const row of chunk) {
            const key = `${row.provider}\u0000${row.model}\u0000${row.role}`;
            const before = merged.get(key);
            merged.set(key, before === undefined ? row : addSpend(before, row));
          }
          const rows = [...merged.values()];
          sql.run(
            `INSERT INTO model_spend (run_id, provider, model, role, calls, input_tokens, output_tokens, cost_usd, unpriced_calls, cached_input_tokens, cache_saving_usd, cache_write_input_tokens)
             VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
             ON CONFLICT (run_id, provider, model, role) DO UPDATE SET
               calls = model_spend.calls + excluded.calls, input_tokens = model_spend.input_tokens + excluded.input_tokens,
               output_tokens = model_spend.output_tokens + excluded.output_tokens, cost_usd = model_spend.cost_usd + excluded.cost_usd,
               unpriced_calls = model_spend.unpriced_calls + excluded.unpriced_calls,
               cached_input_tokens = model_spend.cached_input_tokens + excluded.cached_input_tokens,
               cache_saving_usd = model_spend.cache_saving_usd + excluded.cache_saving_usd,
               cache_write_input_tokens = model_spend.cache_write_input_tokens + excluded.cache_write_input_tokens`,
            rows.flatMap((row) => [runId, row.provider, row.model, row.role, ...spendCounts(row)]),
          );
        }
      });
    },
    runsSince(since) {
      const byRun = new Map<string, ModelSpend[]>();
      const spendRows = sql.all<{ run_id: string } & ModelSpend & SqlRow>(
        `SELECT s.run_id, s.provider, s.model, s.role, s.calls, s.input_tokens, s.output_tokens, s.cost_usd, s.unpriced_calls, s.cached_input_tokens, s.cache_saving_usd, s.cache_write_input_tokens
         FROM model_spend s JOIN runs r ON r.id = s.run_id WHERE r.started_at >= ? ORDER BY s.provider, s.model, s.role, s.run_id`,
        [since],
      );
      for (const { run_id: runId, ...row } of spendRows) {
        const list = byRun.get(runId);
        if (list) list.push(row);
        else byRun.set(runId, [row]);
      }
      const runs = sql.all<Omit<RunSpend, 'models' | 'merged_from'> & { options_json: string }>(
        'SELECT id AS run_id, suite, mode, started_at, cost_usd, options_json FROM runs WHERE started_at >= ? ORDER BY started_at, id',
        [since],
      );
      return runs.map(({ options_json: options, ...run }) => {
        const merged = mergedFrom(options);
        return { ...run, models: byRun.get(run.run_id) ?? [], ...(merged ? { merged_from: merged } : {}) };
      });
    },
    close() {
      sql.close();
    },
  };
}

/** A spend row's counts, in the order both spend tables' INSERTs name them (calls to cache_write_input_tokens). */
export function spendCounts(row: Omit<ModelSpend, 'role'>): number[] {
  return [row.calls, row.input_tokens, row.output_tokens, row.cost_usd, row.unpriced_calls, row.cached_input_tokens, row.cache_saving_usd, row.cache_write_input_tokens];
}

function addSpend(left: ModelSpend, right: ModelSpend): ModelSpend {
  return {
    ...left,
    calls: left.calls + right.calls,
    input_tokens: left.input_tokens + right.input_tokens,
    output_tokens: left.output_tokens + right.output_tokens,
    cost_usd: left.cost_usd + right.cost_usd,
    unpriced_calls: left.unpriced_calls + right.unpriced_calls,
    cached_input_tokens: left.cached_input_tokens + right.cached_input_tokens,
    cache_saving_usd: left.cache_saving_usd + right.cache_saving_usd,
    cache_write_input_tokens: left.cache_write_input_tokens + right.cache_write_input_tokens,
  };
}

/** The shard run ids of a merged run's options (`merged_from`), else undefined. */
function mergedFrom(optionsJson: string): string[] | undefined {
  const options: unknown = JSON.parse(optionsJson);
  if (typeof options !== 'object' || options === null || !('merged_from' in options)) return undefined;
  const ids = (options as { merged_from: unknown }).merged_from;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : undefined;
}
