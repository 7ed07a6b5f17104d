import { ConfigError } from '@parley/core';

/** Where a PostgreSQL store lives, read from `PARLEY_DATABASE_URL` (postgres:// or postgresql://). */
export interface DatabaseUrl {
  /** The URL as given: hand it to the driver, never print it (it may hold a password). */
  readonly connectionString: string;
  /** The same URL with the password replaced by `***`: what messages show. */
  readonly shown: string;
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
}

/** The environment variable that puts the store into PostgreSQL. */
const databaseUrlVariable = 'PARLEY_DATABASE_URL';

/**
 * Reads a PostgreSQL URL. A URL of another scheme, or one that does not parse, is the user's to fix
 * (exit 2); the message never repeats the password.
 */
export function parseDatabaseUrl(text: string, source = databaseUrlVariable): DatabaseUrl {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ConfigError(
      `${source} is not a URL; expected postgres://USER:PASSWORD@HOST:PORT/DATABASE, with any of @ : / ? # % in the user or password percent-encoded ` +
        '(@ as %40, : as %3A, / as %2F, ? as %3F, # as %23, % as %25)',
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`${source} must start with postgres:// or postgresql://, not ${url.protocol}//`);
  }
  if (url.hostname === '') throw new ConfigError(`${source} names no host: ${redactedUrl(url)}`);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  return {
    connectionString: text.trim(),
    shown: redactedUrl(url),
    host: url.hostname,
    port: url.port === '' ? 5432 : Number(url.port),
    database: database === '' ? decodeURIComponent(url.username) || 'postgres' : database,
    user: decodeURIComponent(url.username),
  };
}

/** The URL with any password replaced by `***`. */
function redactedUrl(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password !== '') copy.password = '***';
  return copy.href;
}

/**
 * Removes every appearance of a secret from a message: a driver may quote the URL or the password
 * in its own error text.
 */
export function withoutSecret(message: string, url: DatabaseUrl): string {
  const password = passwordOf(url.connectionString);
  let out = message.split(url.connectionString).join(url.shown);
  if (password !== '') {
    out = out.split(password).join('***');
    const decoded = safeDecode(password);
    if (decoded !== '') out = out.split(decoded).join('***');
  }
  return out;
}

function passwordOf(connectionString: string): string {
  try {
    return new URL(connectionString).password;
  } catch {
    return '';
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '';
  }
}
