import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { SqlDialect, SqlExecutor } from '../sql/executor.js';
import { sqliteExecutor } from '../sql/sqlite-executor.js';
import { openPgExecutor } from '../sql/pg-executor.js';
import { parseDatabaseUrl } from '../sql/database-url.js';
import { migratePg } from '../sql/pg-migrations.js';
import { coordinationTablesSql } from '../sql/coordination-tables.js';
import { freshDatabase, type PostgresServer } from './postgres-server.js';

const requireHere = createRequire(import.meta.url);

/**
 * One database reached by `clients` separate connections (processes stand-in): a SQLite file with
 * the coordination tables, or a fresh PostgreSQL database with the whole schema.
 */
export interface SharedDatabase {
  clients: SqlExecutor[];
  close(): Promise<void>;
}

export async function sharedDatabase(dialect: SqlDialect, clients: number, server: () => PostgresServer): Promise<SharedDatabase> {
  if (dialect === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'parley-sql-'));
    const SqliteDatabase = requireHere('better-sqlite3') as typeof Database;
    const path = join(folder, 'parley.db');
    const setup = new SqliteDatabase(path);
    setup.pragma('journal_mode = WAL');
    setup.exec(coordinationTablesSql);
    setup.close();
    const executors = Array.from({ length: clients }, () => sqliteExecutor(new SqliteDatabase(path, { timeout: 10_000 })));
    return {
      clients: executors,
      close: async () => {
        for (const executor of executors) await executor.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const database = await freshDatabase(server());
  const url = parseDatabaseUrl(database.url);
  const executors = await Promise.all(Array.from({ length: clients }, () => openPgExecutor(url, { maxConnections: 1 })));
  await migratePg(executors[0]!, url.shown);
  return {
    clients: executors,
    close: async () => {
      for (const executor of executors) await executor.close();
      await database.drop();
    },
  };
}
