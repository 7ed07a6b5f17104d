import type Database from 'better-sqlite3';
import type { SqlParams, SqlRow, SqlValue, SyncSql } from './sync-sql.js';

/**
 * SQLite through better-sqlite3. Statements are prepared once per SQL text and kept (a store
 * issues the same few statements many times). Transactions are better-sqlite3's own (BEGIN
 * DEFERRED, savepoints inside), so a write waits up to the connection's busy timeout for another
 * process's lock.
 */
export function sqliteSync(database: Database.Database, shown: string): SyncSql {
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string): Database.Statement => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = database.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const bind = (params: SqlParams | undefined): unknown[] => {
    if (params === undefined) return [];
    if (Array.isArray(params)) return (params as readonly SqlValue[]).map(bound);
    const named: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(params as Readonly<Record<string, SqlValue>>)) named[key] = bound(value);
    return [named];
  };
  return {
    dialect: 'sqlite',
    shown,
    all: <Row extends SqlRow>(sql: string, params?: SqlParams) => prepared(sql).all(...bind(params)) as Row[],
    get: <Row extends SqlRow>(sql: string, params?: SqlParams) => prepared(sql).get(...bind(params)) as Row | undefined,
    run: (sql, params) => {
      const statement = prepared(sql);
      if (statement.reader) {
        statement.all(...bind(params));
        return { changes: 0 };
      }
      return { changes: statement.run(...bind(params)).changes };
    },
    exec: (sql) => {
      database.exec(sql);
    },
    transaction: (work) => database.transaction(work)(),
    get inTransaction() {
      return database.inTransaction;
    },
    close: () => {
      statements.clear();
      database.close();
    },
  };
}

/** SQLite has no boolean: true and false are stored as 1 and 0, as the store's own columns are. */
function bound(value: SqlValue): Exclude<SqlValue, boolean> {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}
