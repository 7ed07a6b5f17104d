import { ConfigError } from '@parley/core';
import { databaseDiskFull, openSql, type SqlParams, type SqlRow, type SyncSql } from '@parley/store';

export type CalibrationRater = 'judge' | 'cross_check';

export interface RaterModelRecord {
  provider: string;
  model: string;
}

/** One `parley calibrate judge` as stored. */
export interface CalibrationSession {
  id: string;
  set_path: string;
  started_at: string;
  finished_at: string | null;
  mode: 'live' | 'record' | 'replay';
  rubric_version: string;
  rubric_sha256: string;
  raters: Partial<Record<CalibrationRater, RaterModelRecord>>;
  items: number;
  parley_version: string;
  /** The signal that stopped the session (Ctrl-C, SIGTERM): it is unfinished and resumable. */
  interrupted_by?: 'SIGINT' | 'SIGTERM' | null;
}

/** One rater's rating of one item in a session; `scores` null when there is no usable answer. */
export interface StoredJudgeRating {
  session_id: string;
  item_id: string;
  rater: CalibrationRater;
  provider: string;
  model: string;
  item_digest: string;
  cache_key: string;
  scores: Record<string, number> | null;
  reason: string | null;
  error: string | null;
  raw_output: string | null;
  cached: boolean;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  latency_ms: number;
}

/** The calibration history in the store, `.parley/parley.db` or the team's PostgreSQL (tables added by store migration step 4). */
export interface CalibrationStore {
  readonly path: string;
  createSession(session: CalibrationSession): void;
  finishSession(id: string, finishedAt: string): void;
  /** Marks a session stopped by a signal: it stays unfinished (`finished_at` null). */
  interruptSession(id: string, signal: 'SIGINT' | 'SIGTERM'): void;
  /** A resumed session is no longer interrupted (until it is again). */
  resumeSession(id: string): void;
  saveRating(rating: StoredJudgeRating): void;
  /** Sessions of a calibration folder, newest first. */
  sessions(setPath: string, limit?: number): CalibrationSession[];
  /** By id or unique id prefix; a prefix several sessions share is a ConfigError. */
  session(idOrPrefix: string): CalibrationSession | undefined;
  ratings(sessionId: string): StoredJudgeRating[];
  close(): void;
}

type SessionRow = Omit<CalibrationSession, 'raters'> &
  SqlRow & {
    raters_json: string;
  };

type RatingRow = Omit<StoredJudgeRating, 'scores' | 'cached'> &
  SqlRow & {
    scores_json: string | null;
    cached: number;
  };

const SESSION_COLUMNS = 'id, set_path, started_at, finished_at, mode, rubric_version, rubric_sha256, raters_json, items, parley_version, interrupted_by';
const RATING_COLUMNS =
  'session_id, item_id, rater, provider, model, item_digest, cache_key, scores_json, reason, error, raw_output, cached, input_tokens, output_tokens, cost_usd, latency_ms';

/** Opens (creating and migrating) the store at `path` (or the team's PostgreSQL) for calibration sessions. */
export function openCalibrationStore(path: string): CalibrationStore {
  const sql: SyncSql = openSql(path);
  const toSession = ({ raters_json: ratersJson, ...row }: SessionRow): CalibrationSession => ({
    ...row,
    raters: JSON.parse(ratersJson) as CalibrationSession['raters'],
  });
  // Each write is one statement (its own transaction): on a full disk (SQLite) it changes nothing
  // and says "disk full" (a DiskFullError, exit 2) instead of SQLite's own SQLITE_FULL.
  const write = (statement: string, params: SqlParams): void => {
    try {
      sql.run(statement, params);
    } catch (error) {
      throw databaseDiskFull(error, path) ?? error;
    }
  };
  return {
    path,
    createSession(session) {
      const { raters, ...columns } = session;
      write(
        `INSERT INTO calibration_sessions (${SESSION_COLUMNS})
         VALUES (@id, @set_path, @started_at, @finished_at, @mode, @rubric_version, @rubric_sha256, @raters_json, @items, @parley_version, @interrupted_by)`,
        {
          ...columns,
          interrupted_by: columns.interrupted_by ?? null,
          raters_json: JSON.stringify(raters),
        },
      );
    },
    finishSession(id, finishedAt) {
      write('UPDATE calibration_sessions SET finished_at = ?, interrupted_by = NULL WHERE id = ?', [finishedAt, id]);
    },
    interruptSession(id, signal) {
      write('UPDATE calibration_sessions SET interrupted_by = ? WHERE id = ?', [signal, id]);
    },
    resumeSession(id) {
      write('UPDATE calibration_sessions SET interrupted_by = NULL WHERE id = ?', [id]);
    },
    saveRating(rating) {
      const { scores, cached, ...columns } = rating;
      write(
        `INSERT INTO calibration_ratings (${RATING_COLUMNS})
         VALUES (@session_id, @item_id, @rater, @provider, @model, @item_digest, @cache_key, @scores_json,
           @reason, @error, @raw_output, @cached, @input_tokens, @output_tokens, @cost_usd, @latency_ms)
         ON CONFLICT (session_id, item_id, rater) DO UPDATE SET provider = excluded.provider, model = excluded.model,
           item_digest = excluded.item_digest, cache_key = excluded.cache_key, scores_json = excluded.scores_json, reason = excluded.reason,
           error = excluded.error, raw_output = excluded.raw_output, cached = excluded.cached, input_tokens = excluded.input_tokens,
           output_tokens = excluded.output_tokens, cost_usd = excluded.cost_usd, latency_ms = excluded.latency_ms`,
        {
          ...columns,
          scores_json: scores === null ? null : JSON.stringify(scores),
          cached: cached ? 1 : 0,
        },
      );
    },
    sessions(setPath, limit = 50) {
      // Sessions started in the same millisecond follow their ids, newest first (an id begins with its start time).
      return sql
        .all<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM calibration_sessions WHERE set_path = ? ORDER BY started_at DESC, id DESC LIMIT ?`, [setPath, limit])
        .map(toSession);
    },
    session(idOrPrefix) {
      const exact = sql.get<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM calibration_sessions WHERE id = ?`, [idOrPrefix]);
      if (exact !== undefined) return toSession(exact);
      const matches = sql
        .all<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM calibration_sessions WHERE id >= ? ORDER BY id LIMIT ?`, [idOrPrefix, 6])
        .filter((row) => row.id.startsWith(idOrPrefix));
      if (matches.length > 1) {
        throw new ConfigError(`calibration session "${idOrPrefix}" is ambiguous: it matches ${matches.map((row) => row.id).join(', ')}; give more of the id`);
      }
      return matches[0] === undefined ? undefined : toSession(matches[0]);
    },
    ratings(sessionId) {
      return sql
        .all<RatingRow>(`SELECT ${RATING_COLUMNS} FROM calibration_ratings WHERE session_id = ? ORDER BY item_id, rater`, [sessionId])
        .map(({ scores_json: scoresJson, cached, ...row }) => ({
          ...row,
          scores: scoresJson === null ? null : (JSON.parse(scoresJson) as Record<string, number>),
          cached: Number(cached) === 1,
        }));
    },
    close: () => sql.close(),
  };
}
