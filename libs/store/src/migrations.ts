import type Database from 'better-sqlite3';

/**
 * One step of the schema's history. Steps are applied in array order and the database records how
 * many it has seen in `PRAGMA user_version`, so step `i` (0-based) takes a database from version
 * `i` to version `i + 1`.
 *
 * Shipped steps are never edited or reordered: databases in the field have already run them.
 * A later feature (judge cache, calibration sessions, flaky marks) appends a new step.
 */
export interface Migration {
  /** Says what the step adds; shown when a step fails. */
  description: string;
  sql: string;
}

/** The schema of `.parley/parley.db`, oldest step first. */
export const migrations: readonly Migration[] = [
  {
    description: 'runs',
    sql: `
      CREATE TABLE runs (
        id                 TEXT PRIMARY KEY,
        suite              TEXT NOT NULL,
        mode               TEXT NOT NULL,
        started_at         TEXT NOT NULL,
        git_sha            TEXT,
        config_fingerprint TEXT,
        parley_version     TEXT NOT NULL,
        options_json       TEXT NOT NULL,
        out_dir            TEXT NOT NULL,
        -- Filled by finishRun; NULL while the run is going on or after it was interrupted.
        status             TEXT,
        exit_code          INTEGER,
        finished_at        TEXT,
        duration_ms        INTEGER,
        input_tokens       INTEGER,
        output_tokens      INTEGER,
        -- NULL in a finished run (status set) means unknown: some model had no price.
        cost_usd           REAL,
        calls              INTEGER,
        counts_json        TEXT
      );
      CREATE INDEX runs_by_start ON runs (started_at DESC);
      CREATE INDEX runs_by_suite_and_start ON runs (suite, started_at DESC);
    `,
  },
  {
    description: 'scenario results and metric scores',
    sql: `
      -- attempt 0 is the scenario's reported result; --repeat stores each repetition as 1..N.
      CREATE TABLE scenario_results (
        run_id          TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        scenario_id     TEXT NOT NULL,
        attempt         INTEGER NOT NULL,
        title           TEXT,
        agent           TEXT NOT NULL,
        gate            TEXT NOT NULL,
        tags_json       TEXT NOT NULL,
        language        TEXT,
        -- Exports and reports leave the transcript of these results out (SPEC §7).
        metadata_only   INTEGER NOT NULL,
        status          TEXT NOT NULL,
        reason          TEXT NOT NULL,
        input_tokens    INTEGER NOT NULL,
        output_tokens   INTEGER NOT NULL,
        cost_usd        REAL,
        calls           INTEGER NOT NULL,
        error_json      TEXT,
        session_json    TEXT,
        -- Last, so that queries which do not select it never read its overflow pages.
        transcript_json TEXT,
        PRIMARY KEY (run_id, scenario_id, attempt)
      );

      -- position keeps the metrics in the order the result listed them: one metric name may occur
      -- twice in a result (a default expectation and the scenario's own).
      CREATE TABLE metric_scores (
        run_id       TEXT NOT NULL,
        scenario_id  TEXT NOT NULL,
        attempt      INTEGER NOT NULL,
        position     INTEGER NOT NULL,
        metric       TEXT NOT NULL,
        version      TEXT NOT NULL,
        score        REAL,
        threshold    REAL,
        passed       INTEGER NOT NULL,
        -- NULL when the metric did not say (MetricResult.error is optional).
        error        INTEGER,
        reason       TEXT NOT NULL,
        details_json TEXT,
        FOREIGN KEY (run_id, scenario_id, attempt)
          REFERENCES scenario_results (run_id, scenario_id, attempt) ON DELETE CASCADE
      );
      -- The one index of metric_scores serves both the scores of a result (all columns equal) and
      -- the history of a scenario's metric across runs (scenario_id prefix). Every index is one more
      -- page written per saved result, so there is deliberately no second one.
      CREATE UNIQUE INDEX metric_scores_by_scenario ON metric_scores (scenario_id, run_id, attempt, position);
    `,
  },
];

/** The database was written by a newer Parley whose schema this one does not know. */
export class DatabaseVersionError extends Error {
  constructor(
    readonly path: string,
    readonly foundVersion: number,
    readonly knownVersion: number,
  ) {
    super(
      `${path} was written by a newer Parley (schema version ${foundVersion}; this Parley knows up to ` +
        `${knownVersion}). Upgrade Parley, or point it at another database.`,
    );
    this.name = 'DatabaseVersionError';
  }
}

/** What the database's `user_version` says. */
export function schemaVersion(database: Database.Database): number {
  const version: unknown = database.pragma('user_version', { simple: true });
  return typeof version === 'number' ? version : 0;
}

/**
 * Brings the database up to the last step. Each step runs in its own write transaction together
 * with the version bump, so a failing step leaves the database at the previous version, untouched.
 * Two processes may open an old database at once: the version is read again under the write lock,
 * and a step another process has applied meanwhile is skipped.
 */
export function migrate(database: Database.Database, steps: readonly Migration[] = migrations, path = database.name): void {
  const current = schemaVersion(database);
  if (current > steps.length) throw new DatabaseVersionError(path, current, steps.length);
  const apply = database.transaction((step: Migration, index: number) => {
    if (schemaVersion(database) !== index) return;
    database.exec(step.sql);
    // PRAGMA takes no bound parameters; index is an integer we computed.
    database.pragma(`user_version = ${index + 1}`);
  });
  steps.forEach((step, index) => {
    if (index < current) return;
    try {
      apply.immediate(step, index);
    } catch (error) {
      throw new Error(`${path}: schema step ${index + 1} (${step.description}) failed: ${messageOf(error)}`, { cause: error });
    }
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
