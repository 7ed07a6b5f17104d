import type Database from 'better-sqlite3';
import type { SqlExecutor, SqlRow, SqlValue } from './executor.js';

/**
 * The SQLite driver: better-sqlite3 behind the async interface. Its calls are synchronous, so the
 * promises resolve at once; what the wrapper adds is the transaction. One connection has one
 * transaction at a time, so `transaction` calls queue behind each other, and so do statements made
 * outside while one is open (they would otherwise land inside it). Each transaction starts with
 * BEGIN IMMEDIATE: it takes the write lock first (waiting up to the busy timeout for another
 * process), so two processes never both read and then fail to upgrade to a write.
 */
export function sqliteExecutor(database: Database.Database): SqlExecutor {
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work, work);
    queue = result.catch(() => undefined);
    return result;
  };

  const query = <Row extends SqlRow>(sql: string, params: readonly SqlValue[] = []): Row[] =>
    database.prepare(sql).all(...params.map(bound)) as Row[];
  const run = (sql: string, params: readonly SqlValue[] = []): { changes: number } => {
    const statement = database.prepare(sql);
    if (statement.reader) {
      statement.all(...params.map(bound));
      return { changes: 0 };
    }
    return { changes: statement.run(...params.map(bound)).changes };
  };

  const inTransaction: SqlExecutor = {
    dialect: 'sqlite',
    query: async (sql, params) => query(sql, params),
    run: async (sql, params) => run(sql, params),
    transaction: async (work) => work(inTransaction),
    close: async () => {
      throw new Error('cannot close the database inside one of its transactions');
    },
  };

  return {
    dialect: 'sqlite',
    query: (sql, params) => exclusive(async () => query(sql, params)),
    run: (sql, params) => exclusive(async () => run(sql, params)),
    transaction: (work) =>
      exclusive(async () => {
        database.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(inTransaction);
          database.exec('COMMIT');
          return result;
        } catch (error) {
          if (database.inTransaction) database.exec('ROLLBACK');
          throw error;
        }
      }),
    close: () =>
      exclusive(async () => {
        database.close();
      }),
  };
}

/** SQLite has no boolean: true and false are stored as 1 and 0, as the store's own columns do. */
function bound(value: SqlValue): Exclude<SqlValue, boolean> {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}
