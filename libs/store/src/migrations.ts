import { coordinationTablesSql } from './sql/coordination-tables.js';
import { cacheWriteColumnsSql } from './sql/cache-write-columns.js';
import { monitorClaimsSql } from './sql/monitor-claims-table.js';
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
        -- Exports and reports leave the transcript of these results out (docs/privacy.md).
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
  {
    description: 'judge cache',
    sql: `
      -- One judge verdict per key: sha256 of scenario_id, prompt_version, judge_model_version,
      -- metric_version and the transcript digest (docs/file-formats.md, "Judge metrics"). The other columns say what the key
      -- stands for, so that parley cache stats and parley cache clear --metric need no decoding.
      CREATE TABLE judge_cache (
        key            TEXT PRIMARY KEY,
        scenario_id    TEXT NOT NULL,
        metric         TEXT NOT NULL,
        metric_version TEXT NOT NULL,
        judge_model    TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        -- The judge's outcome (verdict, votes) as JSON, opaque to the store.
        value_json     TEXT NOT NULL,
        -- What the judging cost when it was done, i.e. what each hit saves; NULL when unknown.
        cost_usd       REAL,
        created_at     TEXT NOT NULL,
        hits           INTEGER NOT NULL DEFAULT 0,
        last_hit_at    TEXT
      );
      CREATE INDEX judge_cache_by_metric ON judge_cache (metric, metric_version);
    `,
  },
  {
    description: 'calibration sessions and their judge ratings',
    sql: `
      -- One \`parley calibrate judge\`: the judge and the cross-check rating every item of a set, so the
      -- agreement with people can be followed from month to month (docs/calibration.md).
      CREATE TABLE calibration_sessions (
        id             TEXT PRIMARY KEY,
        -- The calibration folder as given, relative to the working directory (\`calibration\`).
        set_path       TEXT NOT NULL,
        started_at     TEXT NOT NULL,
        -- NULL while the session runs or after it was interrupted.
        finished_at    TEXT,
        mode           TEXT NOT NULL,
        rubric_version TEXT NOT NULL,
        rubric_sha256  TEXT NOT NULL,
        -- {"judge": {"provider", "model"}, "cross_check": {…}}
        raters_json    TEXT NOT NULL,
        items          INTEGER NOT NULL,
        parley_version TEXT NOT NULL
      );
      CREATE INDEX calibration_sessions_by_set ON calibration_sessions (set_path, started_at DESC);

      CREATE TABLE calibration_ratings (
        session_id    TEXT NOT NULL REFERENCES calibration_sessions (id) ON DELETE CASCADE,
        item_id       TEXT NOT NULL,
        -- judge | cross_check
        rater         TEXT NOT NULL,
        provider      TEXT NOT NULL,
        model         TEXT NOT NULL,
        -- sha256 of the masked transcript the rater saw: a rating of since-edited text is stale.
        item_digest   TEXT NOT NULL,
        -- The recording key of the request: an identical request answered before is not asked again.
        cache_key     TEXT NOT NULL,
        -- {"intent_comprehension": 4, …}; NULL when the answer was unusable or the call failed.
        scores_json   TEXT,
        reason        TEXT,
        error         TEXT,
        raw_output    TEXT,
        cached        INTEGER NOT NULL,
        input_tokens  INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        cost_usd      REAL,
        latency_ms    INTEGER NOT NULL,
        PRIMARY KEY (session_id, item_id, rater)
      );
      CREATE INDEX calibration_ratings_by_cache_key ON calibration_ratings (cache_key);
    `,
  },
  {
    description: 'scenario results by agent',
    sql: `
      -- The agent index of \`parley tui\` (docs/tui.md): each agent's recent runs and the distinct agent
      -- names, read from this index alone (status makes it covering) instead of every result row.
      CREATE INDEX scenario_results_by_agent ON scenario_results (agent, attempt, run_id, status);
    `,
  },
  {
    description: 'flaky marks',
    sql: `
      -- Scenarios a person marked flaky in triage (docs/tui.md), one per scenario of a suite. Kept apart
      -- from the run history: a mark outlives the run it was made in and is shown in later reports.
      CREATE TABLE flaky_marks (
        suite       TEXT NOT NULL,
        scenario_id TEXT NOT NULL,
        -- The run the scenario was triaged in (no foreign key: deleting old runs keeps the mark).
        run_id      TEXT NOT NULL,
        marked_at   TEXT NOT NULL,
        note        TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (suite, scenario_id)
      );
    `,
  },
  {
    description: 'production monitoring',
    sql: `
      -- Production conversations \`parley monitor\` has judged, one per suite and conversation: a
      -- conversation is judged once, however often the monitor runs over the same logs.
      CREATE TABLE monitor_conversations (
        suite           TEXT NOT NULL,
        conversation_id TEXT NOT NULL,
        -- The conversation's latest turn timestamp from the log; NULL when the log has none.
        ended_at        TEXT,
        judged_at       TEXT NOT NULL,
        tenant          TEXT,
        prompt_version  TEXT,
        -- judged | error (a judge call failed: the conversation is judged again on the next run)
        status          TEXT NOT NULL,
        cost_usd        REAL,
        PRIMARY KEY (suite, conversation_id)
      );

      -- One score per metric of a judged conversation. The window comparison reads them by time:
      -- the conversation's end when known, else when it was judged.
      CREATE TABLE monitor_scores (
        suite           TEXT NOT NULL,
        conversation_id TEXT NOT NULL,
        metric          TEXT NOT NULL,
        metric_version  TEXT NOT NULL,
        score           REAL,
        threshold       REAL,
        passed          INTEGER NOT NULL,
        error           INTEGER NOT NULL,
        -- Masked by the suite's redactor, like everything else that is kept.
        reason          TEXT NOT NULL,
        judge_model     TEXT NOT NULL,
        prompt_version  TEXT,
        at              TEXT NOT NULL,
        PRIMARY KEY (suite, conversation_id, metric),
        FOREIGN KEY (suite, conversation_id) REFERENCES monitor_conversations (suite, conversation_id) ON DELETE CASCADE
      );
      CREATE INDEX monitor_scores_by_time ON monitor_scores (suite, metric, at);
    `,
  },
  {
    description: 'judge agreement per run',
    sql: `
      -- How far the cross-check judge agreed with the primary on a run's sampled verdicts (Cohen's
      -- kappa), one row per run that measured it: the trend a drifting judge shows up in.
      CREATE TABLE judge_agreement (
        run_id         TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
        suite          TEXT NOT NULL,
        started_at     TEXT NOT NULL,
        -- Verdicts both judges gave on the same expectation.
        pairs          INTEGER NOT NULL,
        -- On pass/fail, unweighted; NULL when undefined (no pairs, or one category only).
        kappa          REAL,
        -- On the scores in five bands, quadratic weights; NULL when undefined.
        weighted_kappa REAL
      );
      CREATE INDEX judge_agreement_by_suite ON judge_agreement (suite, started_at DESC);
    `,
  },
  {
    description: 'model spend',
    sql: `
      -- What a run paid each model (\`parley cost\`): calls that went to a provider, not replayed
      -- ones. One row per run, provider, model and role (agent, simulator, judge).
      CREATE TABLE model_spend (
        run_id         TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        provider       TEXT NOT NULL,
        model          TEXT NOT NULL,
        role           TEXT NOT NULL,
        calls          INTEGER NOT NULL,
        input_tokens   INTEGER NOT NULL,
        output_tokens  INTEGER NOT NULL,
        -- Sum over the priced calls; unpriced_calls says how many had no known price.
        cost_usd       REAL NOT NULL,
        unpriced_calls INTEGER NOT NULL,
        PRIMARY KEY (run_id, provider, model, role)
      );
    `,
  },
  {
    description: 'prompt cache spend',
    sql: `
      -- Of a run's input tokens per model, those read from the provider's prompt cache, and what
      -- that saved against the full input price (USD; a negative saving is Anthropic's cache-write premium).
      ALTER TABLE model_spend ADD COLUMN cached_input_tokens INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE model_spend ADD COLUMN cache_saving_usd REAL NOT NULL DEFAULT 0;
    `,
  },
  {
    description: 'monitor batches',
    sql: `
      -- Provider batches of \`parley monitor --batch\`: submitted, collected or failed. A second run
      -- collects the batches still in progress instead of sending their requests again.
      CREATE TABLE monitor_batches (
        batch_id     TEXT PRIMARY KEY,
        suite        TEXT NOT NULL,
        provider     TEXT NOT NULL,
        model        TEXT NOT NULL,
        submitted_at TEXT NOT NULL,
        status       TEXT NOT NULL,
        collected_at TEXT
      );
      CREATE INDEX monitor_batches_by_suite ON monitor_batches (suite, status);
      -- Each request of a batch by its request key (the recording key of the judge request), with
      -- the provider's answer (JSON) or the error, once the batch is collected.
      CREATE TABLE monitor_batch_requests (
        batch_id    TEXT NOT NULL REFERENCES monitor_batches (batch_id) ON DELETE CASCADE,
        request_key TEXT NOT NULL,
        body        TEXT,
        error       TEXT,
        PRIMARY KEY (batch_id, request_key)
      );
      CREATE INDEX monitor_batch_requests_by_key ON monitor_batch_requests (request_key);
    `,
  },
  {
    description: 'interrupted calibration sessions',
    sql: `
      -- The signal (SIGINT, SIGTERM) that stopped a \`parley calibrate judge\`: such a session is
      -- unfinished and resumable with --resume; NULL once it finished or was resumed.
      ALTER TABLE calibration_sessions ADD COLUMN interrupted_by TEXT;
    `,
  },
  {
    description: 'delivery outbox',
    sql: `
      -- What Parley owes an outside service (Langfuse scores of \`parley monitor\`, run exports to
      -- Langfuse or an OTLP collector): written in the same transaction as what it reports, marked
      -- delivered only once the service accepted it. Every run first sends what is still pending, so a
      -- killed process loses nothing. One row per kind, destination and item.
      CREATE TABLE outbox (
        -- monitor_score (payload: the Langfuse score) or run_export (payload: what to export).
        kind            TEXT NOT NULL,
        -- Where it goes, without credentials: "langfuse <base URL>" or "otlp <traces URL>".
        destination     TEXT NOT NULL,
        -- The item's own id there: a score id, a run id.
        item_key        TEXT NOT NULL,
        suite           TEXT NOT NULL,
        payload_json    TEXT NOT NULL,
        created_at      TEXT NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        last_attempt_at TEXT,
        last_error      TEXT,
        -- NULL while pending.
        delivered_at    TEXT,
        PRIMARY KEY (kind, destination, item_key)
      );
      CREATE INDEX outbox_pending ON outbox (kind, destination, delivered_at);
    `,
  },
  {
    description: 'judge spend outside runs',
    sql: `
      -- What judge calls made outside a run cost (\`parley cost\`), source \`monitor\`: one row per
      -- model each time \`parley monitor\` saves judged conversations (and once more at its end for
      -- calls of conversations it did not finish). batch_saving_usd is what batch prices saved
      -- against the normal ones. (\`parley calibrate judge\` keeps its cost on each stored rating.)
      CREATE TABLE judge_spend (
        source              TEXT NOT NULL,
        suite               TEXT NOT NULL,
        spent_at            TEXT NOT NULL,
        provider            TEXT NOT NULL,
        model               TEXT NOT NULL,
        calls               INTEGER NOT NULL,
        input_tokens        INTEGER NOT NULL,
        output_tokens       INTEGER NOT NULL,
        cost_usd            REAL NOT NULL,
        unpriced_calls      INTEGER NOT NULL,
        cached_input_tokens INTEGER NOT NULL,
        cache_saving_usd    REAL NOT NULL,
        batch_saving_usd    REAL NOT NULL
      );
      CREATE INDEX judge_spend_by_time ON judge_spend (spent_at);
    `,
  },
  {
    // The same tables as PostgreSQL's second step: one SQL for both.
    description: 'shared budgets and judge claims',
    sql: coordinationTablesSql,
  },
  {
    // The same SQL as PostgreSQL's third step.
    description: 'monitor claims',
    sql: monitorClaimsSql,
  },
  {
    // The same SQL as PostgreSQL's fourth step.
    description: 'prompt cache writes',
    sql: cacheWriteColumnsSql,
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
 * Brings the database up to the last step. A new database (version 0) gets every step in one write
 * transaction: one commit, and SQLite parses the growing schema once instead of after each step's
 * commit (a first `parley run` creates the file). An older database gets each missing step in its
 * own write transaction together with the version bump, so a failing step leaves it at the previous
 * version, untouched; in a new one a failing step leaves it empty. Two processes may open an old or
 * new database at once: the version is read again under the write lock, and steps another process
 * has applied meanwhile are skipped.
 */
export function migrate(database: Database.Database, steps: readonly Migration[] = migrations, path = database.name): void {
  const current = schemaVersion(database);
  if (current > steps.length) throw new DatabaseVersionError(path, current, steps.length);
  if (current === 0 && steps.length > 0) {
    let index = 0;
    const createAll = database.transaction(() => {
      if (schemaVersion(database) !== 0) return false;
      for (; index < steps.length; index += 1) database.exec(steps[index]!.sql);
      database.pragma(`user_version = ${steps.length}`);
      return true;
    });
    let created: boolean;
    try {
      created = createAll.immediate();
    } catch (error) {
      // The step being applied; a failure to begin or to commit is the first step's, as it was before.
      const failed = index < steps.length ? index : 0;
      throw stepFailed(path, steps[failed]!, failed, error);
    }
    if (created) return;
  }
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
      throw stepFailed(path, step, index, error);
    }
  });
}

function stepFailed(path: string, step: Migration, index: number, error: unknown): Error {
  return new Error(`${path}: schema step ${index + 1} (${step.description}) failed: ${messageOf(error)}`, { cause: error });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
