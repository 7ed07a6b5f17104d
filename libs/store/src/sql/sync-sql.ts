/** Which database a handle reaches: SQLite on this machine, or a team's PostgreSQL. */
export type SqlDialect = 'sqlite' | 'postgres';

/** A bound value: SQL NULL, text, a number (integer or real) or a boolean stored as 0/1. */
export type SqlValue = string | number | bigint | boolean | null;

/** One row as the driver returns it, column name to value. */
export type SqlRow = Record<string, unknown>;

/**
 * Values bound to a statement: in order for `?` placeholders, or by name for `@name` placeholders
 * (the object's keys without the `@`). A statement uses one form or the other.
 */
export type SqlParams = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

/**
 * The store's one way to reach its database (docs/decisions.md, "A team store in PostgreSQL"):
 * synchronous, as better-sqlite3 is, with two implementations: SQLite on this machine
 * (sqlite-sync.ts) and PostgreSQL for a team (pg-sync.ts, a worker thread the caller waits on).
 * Every store module is written once against it, in SQL both dialects run: `?` or `@name`
 * placeholders, upserts with `ON CONFLICT`, `RETURNING` instead of last-insert ids, flags as 0/1
 * integers, no `INSERT OR IGNORE/REPLACE`, AUTOINCREMENT, `rowid` or SQLite-only functions (branch
 * on `dialect` where the two must differ, as maintenance such as VACUUM does).
 */
export interface SyncSql {
  readonly dialect: SqlDialect;
  /** Where the database is, for messages: the SQLite file's path, or the PostgreSQL URL with its password replaced. */
  readonly shown: string;
  /** Every row the statement returns. */
  all<Row extends SqlRow = SqlRow>(sql: string, params?: SqlParams): Row[];
  /** The first row the statement returns, or undefined. */
  get<Row extends SqlRow = SqlRow>(sql: string, params?: SqlParams): Row | undefined;
  /** Runs a statement; says how many rows it inserted, changed or deleted. */
  run(sql: string, params?: SqlParams): { changes: number };
  /** Runs several statements without parameters (schema steps, maintenance). */
  exec(sql: string): void;
  /**
   * Runs `work` in one transaction: committed when it returns, rolled back when it throws. A
   * transaction inside another is a savepoint of it (rolled back alone when its work throws).
   */
  transaction<T>(work: () => T): T;
  /** True while a transaction is open. */
  readonly inTransaction: boolean;
  /** Closes this handle; further calls throw. */
  close(): void;
}
