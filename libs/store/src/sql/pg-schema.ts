import { cacheWriteColumnsSql } from './cache-write-columns.js';
import { coordinationTablesSql } from './coordination-tables.js';
import { monitorClaimsSql } from './monitor-claims-table.js';

/** One step of the PostgreSQL schema's history; like SQLite's, shipped steps are never edited. */
export interface PgMigration {
  description: string;
  sql: string;
}

/**
 * The SQLite schema version (libs/store/src/migrations.ts) that step 1 below reproduces. SQLite
 * steps after it are not in PostgreSQL yet: each needs its own PostgreSQL step appended here.
 */
const sqliteVersionCarried = 14;

/**
 * The tables of `.parley/parley.db` at SQLite schema version 14, for PostgreSQL. Same tables,
 * columns, keys and indexes; types mapped: TEXT stays TEXT, REAL becomes DOUBLE PRECISION, and
 * INTEGER becomes BIGINT for counts, tokens and durations (one run of many shards may pass 2^31
 * tokens). Flags stay 0/1 integers so that the store's SQL reads them the same on both.
 */
const sqliteTablesAtVersion14 = `
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
    status             TEXT,
    exit_code          INTEGER,
    finished_at        TEXT,
    duration_ms        BIGINT,
    input_tokens       BIGINT,
    output_tokens      BIGINT,
    cost_usd           DOUBLE PRECISION,
    calls              BIGINT,
    counts_json        TEXT
  );
  CREATE INDEX runs_by_start ON runs (started_at DESC);
  CREATE INDEX runs_by_suite_and_start ON runs (suite, started_at DESC);

  CREATE TABLE scenario_results (
    run_id          TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    scenario_id     TEXT NOT NULL,
    attempt         INTEGER NOT NULL,
    title           TEXT,
    agent           TEXT NOT NULL,
    gate            TEXT NOT NULL,
    tags_json       TEXT NOT NULL,
    language        TEXT,
    metadata_only   INTEGER NOT NULL,
    status          TEXT NOT NULL,
    reason          TEXT NOT NULL,
    input_tokens    BIGINT NOT NULL,
    output_tokens   BIGINT NOT NULL,
    cost_usd        DOUBLE PRECISION,
    calls           BIGINT NOT NULL,
    error_json      TEXT,
    session_json    TEXT,
    transcript_json TEXT,
    PRIMARY KEY (run_id, scenario_id, attempt)
  );
  CREATE INDEX scenario_results_by_agent ON scenario_results (agent, attempt, run_id, status);

  CREATE TABLE metric_scores (
    run_id       TEXT NOT NULL,
    scenario_id  TEXT NOT NULL,
    attempt      INTEGER NOT NULL,
    position     INTEGER NOT NULL,
    metric       TEXT NOT NULL,
    version      TEXT NOT NULL,
    score        DOUBLE PRECISION,
    threshold    DOUBLE PRECISION,
    passed       INTEGER NOT NULL,
    error        INTEGER,
    reason       TEXT NOT NULL,
    details_json TEXT,
    FOREIGN KEY (run_id, scenario_id, attempt)
      REFERENCES scenario_results (run_id, scenario_id, attempt) ON DELETE CASCADE
  );
  CREATE UNIQUE INDEX metric_scores_by_scenario ON metric_scores (scenario_id, run_id, attempt, position);

  CREATE TABLE judge_cache (
    key            TEXT PRIMARY KEY,
    scenario_id    TEXT NOT NULL,
    metric         TEXT NOT NULL,
    metric_version TEXT NOT NULL,
    judge_model    TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    value_json     TEXT NOT NULL,
    cost_usd       DOUBLE PRECISION,
    created_at     TEXT NOT NULL,
    hits           BIGINT NOT NULL DEFAULT 0,
    last_hit_at    TEXT
  );
  CREATE INDEX judge_cache_by_metric ON judge_cache (metric, metric_version);

  CREATE TABLE calibration_sessions (
    id             TEXT PRIMARY KEY,
    set_path       TEXT NOT NULL,
    started_at     TEXT NOT NULL,
    finished_at    TEXT,
    mode           TEXT NOT NULL,
    rubric_version TEXT NOT NULL,
    rubric_sha256  TEXT NOT NULL,
    raters_json    TEXT NOT NULL,
    items          INTEGER NOT NULL,
    parley_version TEXT NOT NULL,
    interrupted_by TEXT
  );
  CREATE INDEX calibration_sessions_by_set ON calibration_sessions (set_path, started_at DESC);

  CREATE TABLE calibration_ratings (
    session_id    TEXT NOT NULL REFERENCES calibration_sessions (id) ON DELETE CASCADE,
    item_id       TEXT NOT NULL,
    rater         TEXT NOT NULL,
    provider      TEXT NOT NULL,
    model         TEXT NOT NULL,
    item_digest   TEXT NOT NULL,
    cache_key     TEXT NOT NULL,
    scores_json   TEXT,
    reason        TEXT,
    error         TEXT,
    raw_output    TEXT,
    cached        INTEGER NOT NULL,
    input_tokens  BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    cost_usd      DOUBLE PRECISION,
    latency_ms    BIGINT NOT NULL,
    PRIMARY KEY (session_id, item_id, rater)
  );
  CREATE INDEX calibration_ratings_by_cache_key ON calibration_ratings (cache_key);

  CREATE TABLE flaky_marks (
    suite       TEXT NOT NULL,
    scenario_id TEXT NOT NULL,
    run_id      TEXT NOT NULL,
    marked_at   TEXT NOT NULL,
    note        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (suite, scenario_id)
  );

  CREATE TABLE monitor_conversations (
    suite           TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    ended_at        TEXT,
    judged_at       TEXT NOT NULL,
    tenant          TEXT,
    prompt_version  TEXT,
    status          TEXT NOT NULL,
    cost_usd        DOUBLE PRECISION,
    PRIMARY KEY (suite, conversation_id)
  );

  CREATE TABLE monitor_scores (
    suite           TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    metric          TEXT NOT NULL,
    metric_version  TEXT NOT NULL,
    score           DOUBLE PRECISION,
    threshold       DOUBLE PRECISION,
    passed          INTEGER NOT NULL,
    error           INTEGER NOT NULL,
    reason          TEXT NOT NULL,
    judge_model     TEXT NOT NULL,
    prompt_version  TEXT,
    at              TEXT NOT NULL,
    PRIMARY KEY (suite, conversation_id, metric),
    FOREIGN KEY (suite, conversation_id) REFERENCES monitor_conversations (suite, conversation_id) ON DELETE CASCADE
  );
  CREATE INDEX monitor_scores_by_time ON monitor_scores (suite, metric, at);

  CREATE TABLE judge_agreement (
    run_id         TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    suite          TEXT NOT NULL,
    started_at     TEXT NOT NULL,
    pairs          INTEGER NOT NULL,
    kappa          DOUBLE PRECISION,
    weighted_kappa DOUBLE PRECISION
  );
  CREATE INDEX judge_agreement_by_suite ON judge_agreement (suite, started_at DESC);

  CREATE TABLE model_spend (
    run_id              TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    provider            TEXT NOT NULL,
    model               TEXT NOT NULL,
    role                TEXT NOT NULL,
    calls               BIGINT NOT NULL,
    input_tokens        BIGINT NOT NULL,
    output_tokens       BIGINT NOT NULL,
    cost_usd            DOUBLE PRECISION NOT NULL,
    unpriced_calls      BIGINT NOT NULL,
    cached_input_tokens BIGINT NOT NULL DEFAULT 0,
    cache_saving_usd    DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, provider, model, role)
  );

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

  CREATE TABLE monitor_batch_requests (
    batch_id    TEXT NOT NULL REFERENCES monitor_batches (batch_id) ON DELETE CASCADE,
    request_key TEXT NOT NULL,
    body        TEXT,
    error       TEXT,
    PRIMARY KEY (batch_id, request_key)
  );
  CREATE INDEX monitor_batch_requests_by_key ON monitor_batch_requests (request_key);

  CREATE TABLE outbox (
    kind            TEXT NOT NULL,
    destination     TEXT NOT NULL,
    item_key        TEXT NOT NULL,
    suite           TEXT NOT NULL,
    payload_json    TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    last_attempt_at TEXT,
    last_error      TEXT,
    delivered_at    TEXT,
    PRIMARY KEY (kind, destination, item_key)
  );
  CREATE INDEX outbox_pending ON outbox (kind, destination, delivered_at);

  CREATE TABLE judge_spend (
    source              TEXT NOT NULL,
    suite               TEXT NOT NULL,
    spent_at            TEXT NOT NULL,
    provider            TEXT NOT NULL,
    model               TEXT NOT NULL,
    calls               BIGINT NOT NULL,
    input_tokens        BIGINT NOT NULL,
    output_tokens       BIGINT NOT NULL,
    cost_usd            DOUBLE PRECISION NOT NULL,
    unpriced_calls      BIGINT NOT NULL,
    cached_input_tokens BIGINT NOT NULL,
    cache_saving_usd    DOUBLE PRECISION NOT NULL,
    batch_saving_usd    DOUBLE PRECISION NOT NULL
  );
  CREATE INDEX judge_spend_by_time ON judge_spend (spent_at);
`;

/** The PostgreSQL schema, oldest step first. */
export const pgMigrations: readonly PgMigration[] = [
  { description: `the SQLite store's tables at its schema version ${sqliteVersionCarried}`, sql: sqliteTablesAtVersion14 },
  { description: 'shared budgets and judge claims', sql: coordinationTablesSql },
  { description: 'monitor claims', sql: monitorClaimsSql },
  { description: 'prompt cache writes', sql: cacheWriteColumnsSql },
];
