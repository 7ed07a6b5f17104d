import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { ConfigError } from '@parley/core';
import { databaseDiskFull } from './database-disk-full.js';
import { DatabaseVersionError, migrate, type Migration, migrations, schemaVersion } from './migrations.js';

/**
 * better-sqlite3 is loaded by the first open, not with the library: its native addon costs every
 * command that imports the store (through the runner) but never opens a database, such as validate.
 */
const requireFromHere = createRequire(import.meta.url);

/** How long a connection waits for another process's write lock before giving up. */
export const busyTimeoutMs = 5_000;

/**
 * Opens (creating it and its folder when needed) a Parley database and brings its schema up to
 * date. Another `parley` process (a second run, the TUI) may have the same file open: WAL lets
 * readers and one writer work at once, and the busy timeout makes a writer wait its turn instead of
 * failing. `synchronous = NORMAL` under WAL can lose the last commits on power loss but never
 * corrupts the file, which is the right trade for a run history.
 *
 * A database from a newer Parley is refused before anything is written to it.
 */
export function openDatabase(path: string, steps: readonly Migration[] = migrations): Database.Database {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const SqliteDatabase = requireFromHere('better-sqlite3') as typeof Database;
  const database = new SqliteDatabase(path, { timeout: busyTimeoutMs });
  try {
    const version = configureConnection(database, path);
    if (version > steps.length) throw new DatabaseVersionError(path, version, steps.length);
    database.pragma('journal_mode = WAL');
    migrate(database, steps, path);
  } catch (error) {
    database.close();
    // A full disk says so (exit 2, "disk full: nothing was changed") for every command that opens a history.
    throw databaseDiskFull(error, path) ?? error;
  }
  return database;
}

/**
 * Sets what belongs to the connection (nothing here writes to the file) and reads the schema
 * version. The first statement is where SQLite notices a file that is not a database at all.
 */
function configureConnection(database: Database.Database, path: string): number {
  try {
    database.pragma(`busy_timeout = ${busyTimeoutMs}`);
    database.pragma('foreign_keys = ON');
    database.pragma('synchronous = NORMAL');
    return schemaVersion(database);
  } catch (error) {
    const full = databaseDiskFull(error, path);
    if (full) throw full;
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown }).code;
    // A file that is not a database (or a damaged one) is the user's to move aside, not a bug: exit 2 saying so.
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new ConfigError(`cannot open ${path} as a Parley database: ${message}; move it aside (the run history then starts afresh) and run again`);
    }
    throw new Error(`cannot open ${path} as a Parley database: ${message}`, { cause: error });
  }
}
