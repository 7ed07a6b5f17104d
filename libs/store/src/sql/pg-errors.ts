import { ConfigError } from '@parley/core';
import { type DatabaseUrl, withoutSecret } from './database-url.js';

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
 * The server refused the role of the URL a privilege the command needs (a role granted SELECT only,
 * running a command that writes; or a role not granted the tables at all): the user's grants to fix,
 * not a bug. Exit 2; the transaction is rolled back, so nothing is half-written.
 */
class DatabasePermissionError extends ConfigError {
  constructor(url: DatabaseUrl, reason: string) {
    super(
      `the PostgreSQL store ${url.shown} refused role "${url.user}" (${withoutSecret(reason, url)}): commands that write (a run, a prune, store copy) ` +
        `need a role that may write Parley's tables; point PARLEY_DATABASE_URL at one, or grant this role what it lacks`,
    );
    this.name = 'DatabasePermissionError';
  }
}

/** A driver error with the password taken out; the SQLSTATE code stays on `code` for callers. */
export function storeError(error: unknown, url: DatabaseUrl): Error {
  const code = (error as { code?: unknown }).code;
  // 25006: read_only_sql_transaction.
  if (code === '25006') return new DatabaseReadOnlyError(url, messageOf(error));
  // 42501: insufficient_privilege.
  if (code === '42501') return new DatabasePermissionError(url, messageOf(error));
  const wrapped = new Error(withoutSecret(messageOf(error), url));
  if (typeof code === 'string') Object.assign(wrapped, { code });
  return wrapped;
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(messageOf).join('; ');
  if (error instanceof Error) return error.message === '' ? error.name : error.message;
  return String(error);
}
