import { openDatabase } from './open-database.js';
import { parseDatabaseUrl } from './sql/database-url.js';
import { migratePgSync } from './sql/pg-migrations.js';
import { openPgSync } from './sql/pg-sync.js';
import { sqliteSync } from './sql/sqlite-sync.js';
import type { SyncSql } from './sql/sync-sql.js';
import { storeUrlFor } from './store-location.js';

interface SharedPg {
  sql: SyncSql;
  users: number;
}

/** One connection (one worker thread) per PostgreSQL URL in a process, shared by the store's modules. */
const sharedPg = new Map<string, SharedPg>();

/**
 * Opens the store's database with its schema brought up to date: PostgreSQL when `url` is given
 * (by default `PARLEY_DATABASE_URL`, unless `path` is kept local), else SQLite at `path`. Each call returns a handle of its own
 * to close; PostgreSQL handles of one URL share one connection, closed with the last of them.
 */
export function openSql(path: string, url: string | undefined = storeUrlFor(path)): SyncSql {
  if (url === undefined) return sqliteSync(openDatabase(path), path);
  let shared = sharedPg.get(url);
  if (shared === undefined) {
    const sql = openPgSync(parseDatabaseUrl(url));
    try {
      migratePgSync(sql);
    } catch (error) {
      sql.close();
      throw error;
    }
    shared = { sql, users: 0 };
    sharedPg.set(url, shared);
  }
  shared.users += 1;
  const { sql } = shared;
  const owner = shared;
  let closed = false;
  return {
    dialect: sql.dialect,
    shown: sql.shown,
    all: (text, params) => sql.all(text, params),
    get: (text, params) => sql.get(text, params),
    run: (text, params) => sql.run(text, params),
    exec: (text) => sql.exec(text),
    transaction: (work) => sql.transaction(work),
    get inTransaction() {
      return sql.inTransaction;
    },
    close: () => {
      if (closed) return;
      closed = true;
      owner.users -= 1;
      if (owner.users === 0) {
        sharedPg.delete(url);
        sql.close();
      }
    },
  };
}
