import type { Pool, PoolClient, QueryResult } from 'pg';
import { ConfigError } from '@parley/core';
import type { SqlExecutor, SqlRow, SqlValue } from './executor.js';
import { type DatabaseUrl, withoutSecret } from './database-url.js';
import { numberedPlaceholders } from './placeholders.js';

/** How long opening a connection may take before the store gives up (the server is down or unreachable). */
const defaultConnectTimeoutMs = 10_000;

export interface PgExecutorOptions {
  /** Connections the pool keeps at most; 4 is plenty for one Parley process. */
  maxConnections?: number;
  connectTimeoutMs?: number;
}

/**
 * The PostgreSQL server could not be reached or refused the login: the user's setting or
 * network to fix, not a bug (exit 2). The message names the server by its URL with the password
 * replaced, and never quotes the password.
 */
export class DatabaseConnectionError extends ConfigError {
  constructor(url: DatabaseUrl, reason: string) {
    super(`cannot connect to the PostgreSQL store ${url.shown}: ${withoutSecret(reason, url)}`);
    this.name = 'DatabaseConnectionError';
  }
}

/**
 * The server refused a write because the database is read-only (a hot-standby replica, or
 * `default_transaction_read_only`): the URL should name the primary. Exit 2; the transaction the
 * write was in is rolled back, so nothing is half-written.
 */
export class DatabaseReadOnlyError extends ConfigError {
  constructor(url: DatabaseUrl, reason: string) {
    super(`the PostgreSQL store ${url.shown} is read-only (${withoutSecret(reason, url)}); point PARLEY_DATABASE_URL at the primary server`);
    this.name = 'DatabaseReadOnlyError';
  }
}

/**
 * The PostgreSQL driver: a node-postgres pool. It is loaded on first use, so a command that never
 * opens a team store never loads it. The first connection is made here, so a wrong URL, password
 * or an unreachable server fails the open, before anything runs.
 *
 * Integers of 8 bytes (COUNT(*), BIGINT columns) come back as numbers, as SQLite gives them, not as
 * node-postgres's default strings: the shared SQL keeps amounts well below 2^53.
 */
export async function openPgExecutor(url: DatabaseUrl, options: PgExecutorOptions = {}): Promise<SqlExecutor> {
  const pg = (await import('pg')).default;
  const int8 = 20;
  const pool: Pool = new pg.Pool({
    connectionString: url.connectionString,
    max: options.maxConnections ?? 4,
    connectionTimeoutMillis: options.connectTimeoutMs ?? defaultConnectTimeoutMs,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === int8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server dropped is reported here; without a listener node would crash.
  // The next query opens a new connection and fails (or succeeds) on its own.
  pool.on('error', () => undefined);
  let first: PoolClient;
  try {
    first = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseConnectionError(url, messageOf(error));
  }
  first.release();
  return pgExecutor(pool, url);
}

function pgExecutor(pool: Pool, url: DatabaseUrl): SqlExecutor {
  const send = async (target: Pool | PoolClient, sql: string, params: readonly SqlValue[]): Promise<QueryResult> => {
    try {
      return await target.query(numberedPlaceholders(sql), params as SqlValue[]);
    } catch (error) {
      throw storeError(error, url);
    }
  };
  const over = (target: Pool | PoolClient, inside: boolean): SqlExecutor => {
    const executor: SqlExecutor = {
      dialect: 'postgres',
      query: async <Row extends SqlRow>(sql: string, params: readonly SqlValue[] = []) => (await send(target, sql, params)).rows as Row[],
      run: async (sql, params = []) => ({ changes: (await send(target, sql, params)).rowCount ?? 0 }),
      transaction: async (work) => {
        if (inside) return work(executor);
        let client: PoolClient;
        try {
          client = await pool.connect();
        } catch (error) {
          throw new DatabaseConnectionError(url, messageOf(error));
        }
        let broken: unknown;
        try {
          await send(client, 'BEGIN', []);
          const result = await work(over(client, true));
          await send(client, 'COMMIT', []);
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch((rollbackError: unknown) => {
            broken = rollbackError;
          });
          throw error;
        } finally {
          // A connection whose rollback failed is in an unknown state: dropped, not reused.
          client.release(broken instanceof Error ? broken : undefined);
        }
      },
      close: async () => {
        if (inside) throw new Error('cannot close the store inside one of its transactions');
        await pool.end();
      },
    };
    return executor;
  };
  return over(pool, false);
}

/** A driver error with the password taken out; the SQLSTATE code stays on `code` for callers. */
export function storeError(error: unknown, url: DatabaseUrl): Error {
  const code = (error as { code?: unknown }).code;
  // 25006: read_only_sql_transaction.
  if (code === '25006') return new DatabaseReadOnlyError(url, messageOf(error));
  const wrapped = new Error(withoutSecret(messageOf(error), url));
  if (typeof code === 'string') Object.assign(wrapped, { code });
  return wrapped;
}

export function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(messageOf).join('; ');
  if (error instanceof Error) return error.message === '' ? error.name : error.message;
  return String(error);
}
