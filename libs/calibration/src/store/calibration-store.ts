import { ConfigError } from '@parley/core';
import { databaseDiskFull, openDatabase } from '@parley/store';
import type Database from 'better-sqlite3';

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

/** The calibration history in `.parley/parley.db` (tables added by store migration step 4). */
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

interface SessionRow extends Omit<CalibrationSession, 'raters'> {
  raters_json: string;
}

interface RatingRow extends Omit<StoredJudgeRating, 'scores' | 'cached'> {
  scores_json: string | null;
  cached: number;
}

/** Opens (creating and migrating) the database at `path` for calibration sessions. */
export function openCalibrationStore(path: string): CalibrationStore {
  const database = openDatabase(path);
  const statements = prepare(database);
  const toSession = ({ raters_json: ratersJson, ...row }: SessionRow): CalibrationSession => ({
    ...row,
    raters: JSON.parse(ratersJson) as CalibrationSession['raters'],
  });
  // Each write is one statement (its own transaction): on a full disk it changes nothing and says
  // "disk full" (a DiskFullError, exit 2) instead of SQLite's own SQLITE_FULL.
  const write = (statement: () => void): void => {
    try {
      statement();
    } catch (error) {
      throw databaseDiskFull(error, path) ?? error;
    }
  };
  return {
    path,
    createSession(session) {
      const { raters, ...columns } = session;
      write(() => statements.insertSession.run({ ...columns, interrupted_by: columns.interrupted_by ?? null, raters_json: JSON.stringify(raters) }));
    },
    finishSession(id, finishedAt) {
      write(() => statements.finishSession.run(finishedAt, id));
    },
    interruptSession(id, signal) {
      write(() => statements.interruptSession.run(signal, id));
    },
    resumeSession(id) {
      write(() => statements.interruptSession.run(null, id));
    },
    saveRating(rating) {
      const { scores, cached, ...columns } = rating;
      write(() => statements.upsertRating.run({ ...columns, scores_json: scores === null ? null : JSON.stringify(scores), cached: cached ? 1 : 0 }));
    },
    sessions(setPath, limit = 50) {
      return statements.sessionsOfSet.all(setPath, limit).map(toSession);
    },
    session(idOrPrefix) {
      const exact = statements.sessionById.get(idOrPrefix);
      if (exact !== undefined) return toSession(exact);
      const matches = statements.sessionsFrom.all(idOrPrefix, 6).filter((row) => row.id.startsWith(idOrPrefix));
      if (matches.length > 1) {
        throw new ConfigError(`calibration session "${idOrPrefix}" is ambiguous: it matches ${matches.map((row) => row.id).join(', ')}; give more of the id`);
      }
      return matches[0] === undefined ? undefined : toSession(matches[0]);
    },
    ratings(sessionId) {
      return statements.ratingsOfSession.all(sessionId).map(({ scores_json: scoresJson, cached, ...row }) => ({
        ...row,
        scores: scoresJson === null ? null : (JSON.parse(scoresJson) as Record<string, number>),
        cached: cached === 1,
      }));
    },
    close: () => database.close(),
  };
}

function prepare(database: Database.Database) {
  return {
    insertSession: database.prepare(`
      INSERT INTO calibration_sessions (id, set_path, started_at, finished_at, mode, rubric_version, rubric_sha256, raters_json, items, parley_version, interrupted_by)
      VALUES (@id, @set_path, @started_at, @finished_at, @mode, @rubric_version, @rubric_sha256, @raters_json, @items, @parley_version, @interrupted_by)`),
    finishSession: database.prepare<[string, string]>(`UPDATE calibration_sessions SET finished_at = ?, interrupted_by = NULL WHERE id = ?`),
    interruptSession: database.prepare<[string | null, string]>(`UPDATE calibration_sessions SET interrupted_by = ? WHERE id = ?`),
    upsertRating: database.prepare(`
      INSERT OR REPLACE INTO calibration_ratings (session_id, item_id, rater, provider, model, item_digest, cache_key, scores_json,
        reason, error, raw_output, cached, input_tokens, output_tokens, cost_usd, latency_ms)
      VALUES (@session_id, @item_id, @rater, @provider, @model, @item_digest, @cache_key, @scores_json,
        @reason, @error, @raw_output, @cached, @input_tokens, @output_tokens, @cost_usd, @latency_ms)`),
    sessionsOfSet: database.prepare<[string, number], SessionRow>(
      `SELECT * FROM calibration_sessions WHERE set_path = ? ORDER BY started_at DESC, rowid DESC LIMIT ?`,
    ),
    sessionById: database.prepare<[string], SessionRow>(`SELECT * FROM calibration_sessions WHERE id = ?`),
    sessionsFrom: database.prepare<[string, number], SessionRow>(`SELECT * FROM calibration_sessions WHERE id >= ? ORDER BY id LIMIT ?`),
    ratingsOfSession: database.prepare<[string], RatingRow>(`SELECT * FROM calibration_ratings WHERE session_id = ? ORDER BY item_id, rater`),
  };
}
