import type Database from 'better-sqlite3';
import { openDatabase } from './open-database.js';

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
  close(): void;
}

interface CacheRow {
  key: string;
  scenario_id: string;
  metric: string;
  metric_version: string;
  judge_model: string;
  prompt_version: string;
  value_json: string;
  cost_usd: number | null;
  created_at: string;
}

/** Opens (creating and migrating it when needed) the judge cache of the database at `path`. */
export function openJudgeCache(path: string, now: () => Date = () => new Date()): JudgeCacheStore {
  const database = openDatabase(path);
  const select = database.prepare<[string], CacheRow>(
    'SELECT key, scenario_id, metric, metric_version, judge_model, prompt_version, value_json, cost_usd, created_at FROM judge_cache WHERE key = ?',
  );
  const countHit = database.prepare<[string, string]>('UPDATE judge_cache SET hits = hits + 1, last_hit_at = ? WHERE key = ?');
  const upsert = database.prepare(
    `INSERT INTO judge_cache (key, scenario_id, metric, metric_version, judge_model, prompt_version, value_json, cost_usd, created_at)
     VALUES (@key, @scenario_id, @metric, @metric_version, @judge_model, @prompt_version, @value_json, @cost_usd, @created_at)
     ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, cost_usd = excluded.cost_usd,
       created_at = excluded.created_at, hits = 0, last_hit_at = NULL`,
  );
  return {
    path,
    get(key) {
      const row = select.get(key);
      if (row === undefined) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(row.value_json);
      } catch {
        return undefined;
      }
      countHit.run(now().toISOString(), key);
      const { value_json: _json, ...record } = row;
      return { ...record, value };
    },
    put(record) {
      const { value, ...columns } = record;
      upsert.run({ ...columns, value_json: JSON.stringify(value) });
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
      return database.prepare(`DELETE FROM judge_cache${where}`).run(...parameters).changes;
    },
    stats: () => cacheStats(database, path),
    close: () => database.close(),
  };
}

function cacheStats(database: Database.Database, path: string): JudgeCacheStats {
  const totals = database
    .prepare<
      [],
      { entries: number; hits: number | null; unknown_saved: number; saved: number | null; unknown_cost: number; stored: number | null; oldest: string | null; newest: string | null }
    >(
      `SELECT count(*) AS entries, sum(hits) AS hits,
              sum(CASE WHEN hits > 0 AND cost_usd IS NULL THEN 1 ELSE 0 END) AS unknown_saved,
              sum(cost_usd * hits) AS saved,
              sum(CASE WHEN cost_usd IS NULL THEN 1 ELSE 0 END) AS unknown_cost,
              sum(cost_usd) AS stored,
              min(created_at) AS oldest, max(created_at) AS newest
         FROM judge_cache`,
    )
    .get()!;
  const groups = (column: string, label: string) =>
    database
      .prepare<[], JudgeCacheGroup>(`SELECT ${label} AS name, count(*) AS entries, sum(hits) AS hits FROM judge_cache GROUP BY ${column} ORDER BY name`)
      .all();
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
  };
}
