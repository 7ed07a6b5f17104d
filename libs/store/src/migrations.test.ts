import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseVersionError, migrate, migrations, schemaVersion } from './migrations.js';
import { openDatabase } from './open-database.js';
import { openStore } from './store.js';
import { newRun, passingResult, temporaryFolder } from './test-support/fixtures.js';

function tableNames(database: Database.Database): string[] {
  return database
    .prepare<[], { name: string }>(`SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .all()
    .map((row) => row.name);
}

describe('migrate', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());

  it('builds the whole schema in an empty database', () => {
    const database = openDatabase(join(folder.path, 'parley.db'));
    try {
      expect(schemaVersion(database)).toBe(migrations.length);
      expect(tableNames(database)).toEqual([
        'calibration_ratings',
        'calibration_ratings_by_cache_key',
        'calibration_sessions',
        'calibration_sessions_by_set',
        'flaky_marks',
        'judge_agreement',
        'judge_agreement_by_suite',
        'judge_cache',
        'judge_cache_by_metric',
        'judge_claims',
        'judge_spend',
        'judge_spend_by_time',
        'metric_scores',
        'metric_scores_by_scenario',
        'model_spend',
        'monitor_batch_requests',
        'monitor_batch_requests_by_key',
        'monitor_batches',
        'monitor_batches_by_suite',
        'monitor_claims',
        'monitor_conversations',
        'monitor_scores',
        'monitor_scores_by_time',
        'outbox',
        'outbox_pending',
        'runs',
        'runs_by_start',
        'runs_by_suite_and_start',
        'scenario_results',
        'scenario_results_by_agent',
        'shared_budgets',
      ]);
      expect(database.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(database.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
      expect(database.pragma('busy_timeout', { simple: true })).toBe(5_000);
    } finally {
      database.close();
    }
  });

  it('upgrades a database an older Parley left at version 1, keeping its runs', () => {
    const path = join(folder.path, 'parley.db');
    // What Parley's first schema step wrote, typed out as that version shipped it.
    const old = new Database(path);
    old.exec(`
      CREATE TABLE runs (
        id TEXT PRIMARY KEY, suite TEXT NOT NULL, mode TEXT NOT NULL, started_at TEXT NOT NULL, git_sha TEXT,
        config_fingerprint TEXT, parley_version TEXT NOT NULL, options_json TEXT NOT NULL, out_dir TEXT NOT NULL,
        status TEXT, exit_code INTEGER, finished_at TEXT, duration_ms INTEGER, input_tokens INTEGER,
        output_tokens INTEGER, cost_usd REAL, calls INTEGER, counts_json TEXT);
      CREATE INDEX runs_by_start ON runs (started_at DESC);
      CREATE INDEX runs_by_suite_and_start ON runs (suite, started_at DESC);
      INSERT INTO runs (id, suite, mode, started_at, parley_version, options_json, out_dir)
        VALUES ('old-run', 'ratiba_booking', 'live', '2026-10-01T09:00:00.000Z', '0.0.9', '{"repeat":2}', 'out');
      PRAGMA user_version = 1;
    `);
    old.close();

    const store = openStore(path);
    try {
      expect(store.getRun('old-run')).toMatchObject({ suite: 'ratiba_booking', options: { repeat: 2 }, finished: false });
      store.saveScenarioResult('old-run', passingResult());
      expect(store.getScenarioResults('old-run')).toStrictEqual([passingResult()]);
    } finally {
      store.close();
    }
    const reopened = new Database(path, { readonly: true });
    expect(schemaVersion(reopened)).toBe(migrations.length);
    reopened.close();
  });

  it('refuses a database from a newer Parley, naming both versions, and leaves it alone', () => {
    const path = join(folder.path, 'parley.db');
    const newer = new Database(path);
    newer.pragma(`user_version = ${migrations.length + 1}`);
    newer.close();

    expect(() => openStore(path)).toThrow(DatabaseVersionError);
    expect(() => openStore(path)).toThrow(
      `${path} was written by a newer Parley (schema version ${migrations.length + 1}; this Parley knows up to ${migrations.length})`,
    );
    const untouched = new Database(path, { readonly: true });
    expect(tableNames(untouched)).toEqual([]);
    expect(untouched.pragma('journal_mode', { simple: true })).toBe('delete');
    untouched.close();
  });

  it('rolls back a failing step of an upgrade and keeps the version of the steps before it', () => {
    const database = new Database(':memory:');
    const first = { description: 'first', sql: 'CREATE TABLE first (id INTEGER)' };
    migrate(database, [first], 'test.db');
    const steps = [
      first,
      { description: 'second', sql: 'CREATE TABLE second (id INTEGER)' },
      { description: 'broken', sql: 'CREATE TABLE third (id INTEGER); INSERT INTO missing VALUES (1);' },
    ];
    expect(() => migrate(database, steps, 'test.db')).toThrow(/test\.db: schema step 3 \(broken\) failed: no such table: missing/);
    expect(schemaVersion(database)).toBe(2);
    expect(tableNames(database)).toEqual(['first', 'second']);
    database.close();
  });

  it('builds a new database in one transaction: a failing step leaves it empty, at version 0', () => {
    const database = new Database(':memory:');
    const steps = [
      { description: 'first', sql: 'CREATE TABLE first (id INTEGER)' },
      { description: 'broken', sql: 'CREATE TABLE second (id INTEGER); INSERT INTO missing VALUES (1);' },
    ];
    expect(() => migrate(database, steps, 'test.db')).toThrow(/test\.db: schema step 2 \(broken\) failed: no such table: missing/);
    expect(schemaVersion(database)).toBe(0);
    expect(tableNames(database)).toEqual([]);
    database.close();
  });

  it('gives a new database (all steps at once) the schema an old one gets step by step', () => {
    const schema = (database: Database.Database) =>
      database.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`).all();
    const fresh = new Database(join(folder.path, 'fresh.db'));
    migrate(fresh);
    // One step at a time, each committed before the next, as databases in the field were upgraded.
    const stepwise = new Database(join(folder.path, 'stepwise.db'));
    for (let version = 1; version <= migrations.length; version += 1) {
      migrate(stepwise, migrations.slice(0, version));
      expect(schemaVersion(stepwise)).toBe(version);
    }
    try {
      expect(schemaVersion(fresh)).toBe(migrations.length);
      expect(schema(fresh)).toEqual(schema(stepwise));
      expect(schema(fresh).length).toBeGreaterThan(30);
    } finally {
      fresh.close();
      stepwise.close();
    }
  });

  it('does nothing to a database that is up to date', () => {
    const database = new Database(':memory:');
    migrate(database);
    database.exec(`INSERT INTO runs (id, suite, mode, started_at, parley_version, options_json, out_dir)
      VALUES ('kept', 's', 'replay', 't', 'v', '{}', 'o')`);
    migrate(database);
    expect(database.prepare('SELECT count(*) AS runs FROM runs').get()).toEqual({ runs: 1 });
    database.close();
  });

  it('says which file is not a database', () => {
    const path = join(folder.path, 'parley.db');
    writeFileSync(path, 'this is not SQLite, just text that is long enough to have a header '.repeat(20));
    expect(() => openStore(path)).toThrow(`cannot open ${path} as a Parley database`);
  });

  it('opens a store in memory', () => {
    const store = openStore(':memory:');
    store.createRun(newRun());
    expect(store.listRuns()).toHaveLength(1);
    store.close();
  });
});
