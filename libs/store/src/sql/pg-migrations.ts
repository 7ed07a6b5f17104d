import { DatabaseVersionError } from '../migrations.js';
import type { SyncSql } from './sync-sql.js';
import { type PgMigration, pgMigrations } from './pg-schema.js';

/**
 * The advisory lock every Parley process takes to migrate a PostgreSQL store. Any fixed number
 * serves; this one is "parley" in ASCII, so it is recognisable in pg_locks.
 */
const migrationLockKey = 0x706172_6c6579;

/** The schema version a PostgreSQL store is at: the last step recorded, 0 when none is. */
export function pgSchemaVersionSync(sql: SyncSql): number {
  if (sql.get<{ present: string | null }>(`SELECT to_regclass('parley_schema_steps')::text AS present`)?.present == null) return 0;
  return sql.get<{ version: number | null }>('SELECT MAX(version) AS version FROM parley_schema_steps')?.version ?? 0;
}

/**
 * Brings a PostgreSQL store up to the last step, in one transaction: either every missing step is
 * applied and recorded in `parley_schema_steps`, or (a step failed) nothing is. The transaction
 * first takes a transaction-scoped advisory lock, so two processes starting together on an empty
 * database do not both create the tables: the second waits, then reads the version the first
 * recorded and has nothing left to do. A store already at the last version is only read (a
 * read-only replica opens). A database at a newer version than these steps is refused
 * before anything is written, with the same error SQLite's store gives (exit 2).
 */
export function migratePgSync(sql: SyncSql, steps: readonly PgMigration[] = pgMigrations): number {
  const before = pgSchemaVersionSync(sql);
  if (before > steps.length) throw new DatabaseVersionError(sql.shown, before, steps.length);
  if (before === steps.length) return steps.length;
  return sql.transaction(() => {
    sql.get('SELECT pg_advisory_xact_lock(?)', [migrationLockKey]);
    sql.run(`
      CREATE TABLE IF NOT EXISTS parley_schema_steps (
        version     INTEGER PRIMARY KEY,
        description TEXT NOT NULL,
        applied_at  TEXT NOT NULL
      )`);
    const current = pgSchemaVersionSync(sql);
    if (current > steps.length) throw new DatabaseVersionError(sql.shown, current, steps.length);
    for (let index = current; index < steps.length; index += 1) {
      const step = steps[index]!;
      try {
        sql.exec(step.sql);
      } catch (error) {
        throw new Error(`${sql.shown}: schema step ${index + 1} (${step.description}) failed: ${(error as Error).message}`, { cause: error });
      }
      sql.run('INSERT INTO parley_schema_steps (version, description, applied_at) VALUES (?, ?, ?)', [index + 1, step.description, new Date().toISOString()]);
    }
    return steps.length;
  });
}
