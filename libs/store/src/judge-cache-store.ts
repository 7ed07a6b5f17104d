import { claimHolder } from './claim-holder.js';
import { openSql } from './open-sql.js';
import { claimVerdict, releaseClaim, renewClaim } from './sql/judge-claims.js';
import type { SyncSql } from './sql/sync-sql.js';

/** One cached judge verdict (the judge library decides what `value` holds). */
export interface JudgeCacheRecord {
  key: string;
  scenario_id: string;
  metric: string;
  metric_version: string;
  judge_model: string;
  prompt_version: string;
  value: unknown;
  /** What the judging cost when it was done; null when unknown. */
  cost_usd: number | null;
  created_at: string;
}

export interface JudgeCacheGroup {
  /** `fluency_sw@1.0.0`, or a judge model. */
  name: string;
  entries: number;
  hits: number;
}

export interface JudgeCacheStats {
  path: string;
  entries: number;
  /** Times a cached verdict was used instead of a judge call. */
  hits: number;
  /** Sum over entries of cost × hits; null when some entry that was hit has no known cost. */
  saved_usd: number | null;
  /** Sum of the entries' own costs: what judging them afresh would cost (null when unknown). */
  stored_cost_usd: number | null;
  oldest: string | null;
  newest: string | null;
  by_metric: JudgeCacheGroup[];
  by_judge_model: JudgeCacheGroup[];
  /** Verdicts a process sharing the store is judging now (claimed, lease not past): others wait for them. */
  judging_now: number;
}

/** Which entries `clear` removes; all when empty. */
export interface JudgeCacheFilter {
  metric?: string;
  scenario?: string;
}

/**
 * The judge verdict cache in `.parley/parley.db` (docs/file-formats.md, "Judge metrics", cache), a
 * table of its own beside the run history, opened on its own connection so that a run can read it
 * while the history is written.
 */
export interface JudgeCacheStore {
  readonly path: string;
  /** The entry, counting a hit; undefined when absent or unreadable (then it is judged afresh). */
  get(key: string): JudgeCacheRecord | undefined;
  /** Stores or replaces the entry of `key`. */
  put(record: JudgeCacheRecord): void;
  /** Removes entries; returns how many. */
  clear(filter?: JudgeCacheFilter): number;
  stats(): JudgeCacheStats;
  /**
   * Claims the judging of `key` for this handle (docs/file-formats.md, "Judge metrics", cache):
   * `claimed` when nobody else is judging it (then put the verdict and `release`), `held` while
   * another handle or process is (ask `get` again a little later). A claim whose holder stopped
   * renewing it for `leaseMs` is taken over.
   */
  claim(key: string, leaseMs: number): 'claimed' | 'held';
  /** Extends this handle's claim on `key` while its judging goes on; false when it was taken over. */
  renew(key: string, leaseMs: number): boolean;
  /** Gives this handle's claim on `key` up (after `put`, or when the judging failed). */
  release(key: string): void;
  close(): void;
}

type CacheRow = {
  key: string;
  scenario_id: string;
  metric: string;
  metric_version: string;
  judge_model: string;
  prompt_version: string;
  value_json: string;
  cost_usd: number | null;
  created_at: string;
};

/**
 * Opens the judge cache of the store at `path` (PostgreSQL when PARLEY_DATABASE_URL names one,
 * creating and migrating it when needed). `now` times hits and claims' leases.
 */
export function openJudgeCache(path: string, now: () => Date = () => new Date()): JudgeCacheStore {
  const sql = openSql(path);
  // Who this handle is in judge_claims: unique across processes and machines sharing the store.
  const holder = claimHolder();
  return {
    path,
    get(key) {
      const row = sql.get<CacheRow>(
        'SELECT key, scenario_id, metric, metric_version, judge_model, prompt_version, value_json, cost_usd, created_at FROM judge_cache WHERE key = ?',
        [key],
      );
      if (row === undefined) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(row.value_json);
      } catch {
        return undefined;
      }
      sql.run('UPDATE judge_cache SET hits = hits + 1, last_hit_at = ? WHERE key = ?', [now().toISOString(), key]);
      const { value_json: _json, ...record } = row;
      return { ...record, value };
    },
    put(record) {
      const { value, ...columns } = record;
      sql.run(
        `INSERT INTO judge_cache (key, scenario_id, metric, metric_version, judge_model, prompt_version, value_json, cost_usd, created_at)
         VALUES (@key, @scenario_id, @metric, @metric_version, @judge_model, @prompt_version, @value_json, @cost_usd, @created_at)
         ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, cost_usd = excluded.cost_usd,
           created_at = excluded.created_at, hits = 0, last_hit_at = NULL`,
        { ...columns, value_json: JSON.stringify(value) },
      );
    },
    clear(filter = {}) {
      const conditions: string[] = [];
      const parameters: string[] = [];
      if (filter.metric !== undefined) {
        conditions.push('metric = ?');
        parameters.push(filter.metric);
      }
      if (filter.scenario !== undefined) {
        conditions.push('scenario_id = ?');
        parameters.push(filter.scenario);
      }
      const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
      return sql.run(`DELETE FROM judge_cache${where}`, parameters).changes;
    },
    stats: () => cacheStats(sql, path, now().getTime()),
    claim: (key, leaseMs) => (claimVerdict(sql, key, holder, now().getTime(), leaseMs).kind === 'claimed' ? 'claimed' : 'held'),
    renew: (key, leaseMs) => renewClaim(sql, key, holder, now().getTime(), leaseMs),
    release: (key) => void releaseClaim(sql, key, holder),
    close: () => sql.close(),
  };
}

function cacheStats(sql: SyncSql, path: string, nowMs: number): JudgeCacheStats {
  // SUM over a BIGINT column is NUMERIC on PostgreSQL (a string to node-postgres): cast back.
  const totals = sql.get<{
    entries: number;
    hits: number | null;
    unknown_saved: number;
    saved: number | null;
    unknown_cost: number;
    stored: number | null;
    oldest: string | null;
    newest: string | null;
  }>(
    `SELECT count(*) AS entries, CAST(sum(hits) AS BIGINT) AS hits,
            count(CASE WHEN hits > 0 AND cost_usd IS NULL THEN 1 END) AS unknown_saved,
            sum(cost_usd * hits) AS saved,
            count(CASE WHEN cost_usd IS NULL THEN 1 END) AS unknown_cost,
            sum(cost_usd) AS stored,
            min(created_at) AS oldest, max(created_at) AS newest
       FROM judge_cache`,
  )!;
  const groups = (column: string, label: string): JudgeCacheGroup[] =>
    sql.all<{ name: string; entries: number; hits: number }>(
      `SELECT ${label} AS name, count(*) AS entries, CAST(sum(hits) AS BIGINT) AS hits FROM judge_cache GROUP BY ${column} ORDER BY name`,
    );
  return {
    path,
    entries: totals.entries,
    hits: totals.hits ?? 0,
    saved_usd: totals.unknown_saved > 0 ? null : (totals.saved ?? 0),
    stored_cost_usd: totals.unknown_cost > 0 ? null : (totals.stored ?? 0),
    oldest: totals.oldest,
    newest: totals.newest,
    by_metric: groups('metric, metric_version', "metric || '@' || metric_version"),
    by_judge_model: groups('judge_model', 'judge_model'),
    judging_now: Number(sql.get<{ count: number | string }>('SELECT count(*) AS count FROM judge_claims WHERE value_json IS NULL AND lease_until_ms >= ?', [nowMs])?.count ?? 0),
  };
}
