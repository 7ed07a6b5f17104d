/**
 * The one interface the store's SQL is written against (docs/decisions.md, "A team store in PostgreSQL"):
 * SQLite through better-sqlite3 on one machine, PostgreSQL through node-postgres for a team. SQL
 * passed here is written once for both: `?` placeholders (translated to `$1…` for PostgreSQL),
 * upserts with `ON CONFLICT`, no `INSERT OR IGNORE` or AUTOINCREMENT.
 */
export type SqlDialect = 'sqlite' | 'postgres';

/** A bound value: SQL NULL, text, a number (integer or real) or a boolean stored as 0/1 on SQLite. */
export type SqlValue = string | number | bigint | boolean | null;

/** One row as the driver returns it, column name to value. */
export type SqlRow = Record<string, unknown>;

export interface SqlExecutor {
  readonly dialect: SqlDialect;
  /** Runs a statement that returns rows (SELECT, or a write with RETURNING) and returns them all. */
  query<Row extends SqlRow = SqlRow>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** Runs a statement and says how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
  /**
   * Runs `work` in one transaction on one connection: committed when it resolves, rolled back when
   * it throws. Statements inside use the executor handed to `work`; a nested call runs in the
   * enclosing transaction.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Closes the connection or pool; the executor is unusable after. */
  close(): Promise<void>;
}
