import type { ModelSpend } from './model-spend-store.js';
import { openDatabase } from './open-database.js';

/**
 * What judge calls outside a run cost one model (`parley monitor`, `parley calibrate judge`): the
 * fields of a run's model spend without the role (always the judge), and what batch prices saved
 * against the normal ones (`monitor --batch`).
 */
export type JudgeModelSpend = Omit<ModelSpend, 'role'> & { batch_saving_usd: number };

/** Where judge spend outside runs comes from. */
export type JudgeSpendSource = 'monitor' | 'calibration';

export interface JudgeSpendEntry extends JudgeModelSpend {
  source: JudgeSpendSource;
  /** The suite (monitor) or the calibration folder (calibrate judge). */
  suite: string;
  /** When the calls were made (a calibration session: when it started). */
  spent_at: string;
}

export interface JudgeSpendStore {
  /** Adds what `parley monitor` paid since it last recorded (rows without a call are skipped). */
  add(source: 'monitor', suite: string, spentAt: string, rows: readonly JudgeModelSpend[]): void;
  /**
   * Judge spend outside runs since `since` (ISO 8601): the monitor's rows, and per calibration
   * session and model its ratings that went to a provider (not replayed, not from the cache).
   */
  since(since: string): JudgeSpendEntry[];
  close(): void;
}

/** The judge spend outside runs of the database at `path`, on a connection of its own. */
export function openJudgeSpend(path: string): JudgeSpendStore {
  const database = openDatabase(path);
  const insert = database.prepare<[JudgeSpendEntry]>(`
    INSERT INTO judge_spend (source, suite, spent_at, provider, model, calls, input_tokens, output_tokens, cost_usd, unpriced_calls, cached_input_tokens, cache_saving_usd, batch_saving_usd)
    VALUES (@source, @suite, @spent_at, @provider, @model, @calls, @input_tokens, @output_tokens, @cost_usd, @unpriced_calls, @cached_input_tokens, @cache_saving_usd, @batch_saving_usd)`);
  const addAll = database.transaction((entries: readonly JudgeSpendEntry[]) => {
    for (const entry of entries) insert.run(entry);
  });
  const monitorRows = database.prepare<[string], JudgeSpendEntry>(`
    SELECT source, suite, spent_at, provider, model, calls, input_tokens, output_tokens, cost_usd, unpriced_calls, cached_input_tokens, cache_saving_usd, batch_saving_usd
    FROM judge_spend WHERE spent_at >= ? ORDER BY spent_at, rowid`);
  // A rating is one call (an unusable answer asked again adds its tokens to the same rating).
  const calibrationRows = database.prepare<[string], JudgeSpendEntry>(`
    SELECT 'calibration' AS source, s.set_path AS suite, s.started_at AS spent_at, r.provider, r.model,
      SUM(r.input_tokens > 0 OR r.output_tokens > 0) AS calls, SUM(r.input_tokens) AS input_tokens, SUM(r.output_tokens) AS output_tokens,
      SUM(COALESCE(r.cost_usd, 0)) AS cost_usd, SUM(r.cost_usd IS NULL) AS unpriced_calls,
      0 AS cached_input_tokens, 0 AS cache_saving_usd, 0 AS batch_saving_usd
    FROM calibration_ratings r JOIN calibration_sessions s ON s.id = r.session_id
    WHERE s.started_at >= ? AND s.mode <> 'replay' AND r.cached = 0
    GROUP BY s.id, r.provider, r.model HAVING SUM(r.input_tokens > 0 OR r.output_tokens > 0) > 0
    ORDER BY s.started_at, s.id, r.provider, r.model`);
  return {
    add(source, suite, spentAt, rows) {
      addAll(rows.filter((row) => row.calls > 0).map((row) => ({ ...row, source, suite, spent_at: spentAt })));
    },
    since(since) {
      return [...monitorRows.all(since), ...calibrationRows.all(since)];
    },
    close() {
      database.close();
    },
  };
}
