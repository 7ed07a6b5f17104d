import { spendCounts, type ModelSpend } from './model-spend-store.js';
import { openSql } from './open-sql.js';
import type { SqlRow } from './sql/sync-sql.js';

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

const spendColumns = 'source, suite, spent_at, provider, model, calls, input_tokens, output_tokens, cost_usd, unpriced_calls, cached_input_tokens, cache_saving_usd, cache_write_input_tokens, batch_saving_usd';

/** The judge spend outside runs of the store at `path` (PostgreSQL when PARLEY_DATABASE_URL names one). */
export function openJudgeSpend(path: string): JudgeSpendStore {
  const sql = openSql(path);
  return {
    add(source, suite, spentAt, rows) {
      const entries = rows.filter((row) => row.calls > 0);
      if (entries.length === 0) return;
      // One statement for the rows (a round trip each on PostgreSQL); a monitor run has a few models.
      const values = entries.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
      const params = entries.flatMap((row) => [source, suite, spentAt, row.provider, row.model, ...spendCounts(row), row.batch_saving_usd]);
      sql.run(`INSERT INTO judge_spend (${spendColumns}) VALUES ${values}`, params);
    },
    since(since) {
      // judge_spend has no key: rows equal in every column ordered by are equal rows.
      const monitorRows = sql.all<JudgeSpendEntry & SqlRow>(
        `SELECT ${spendColumns} FROM judge_spend WHERE spent_at >= ?
         ORDER BY spent_at, source, suite, provider, model, calls, input_tokens, output_tokens, cost_usd, unpriced_calls, cached_input_tokens, cache_saving_usd, cache_write_input_tokens, batch_saving_usd`,
        [since],
      );
      // A rating is one call (an unusable answer asked again adds its tokens to the same rating).
      // Sums of BIGINT columns are NUMERIC on PostgreSQL (strings to node-postgres): cast back.
      const calibrationRows = sql.all<JudgeSpendEntry & SqlRow>(
        `SELECT 'calibration' AS source, s.set_path AS suite, s.started_at AS spent_at, r.provider, r.model,
           count(CASE WHEN r.input_tokens > 0 OR r.output_tokens > 0 THEN 1 END) AS calls,
           CAST(SUM(r.input_tokens) AS BIGINT) AS input_tokens, CAST(SUM(r.output_tokens) AS BIGINT) AS output_tokens,
           CAST(SUM(COALESCE(r.cost_usd, 0)) AS DOUBLE PRECISION) AS cost_usd, count(CASE WHEN r.cost_usd IS NULL THEN 1 END) AS unpriced_calls,
           0 AS cached_input_tokens, 0 AS cache_saving_usd, 0 AS cache_write_input_tokens, 0 AS batch_saving_usd
         FROM calibration_ratings r JOIN calibration_sessions s ON s.id = r.session_id
         WHERE s.started_at >= ? AND s.mode <> 'replay' AND r.cached = 0
         GROUP BY s.id, s.set_path, s.started_at, r.provider, r.model HAVING count(CASE WHEN r.input_tokens > 0 OR r.output_tokens > 0 THEN 1 END) > 0
         ORDER BY s.started_at, s.id, r.provider, r.model`,
        [since],
      );
      return [...monitorRows, ...calibrationRows];
    },
    close() {
      sql.close();
    },
  };
}
