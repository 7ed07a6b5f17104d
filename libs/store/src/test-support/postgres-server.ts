import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseDatabaseUrl } from '../sql/database-url.js';
import { openPgSync } from '../sql/pg-sync.js';

/**
 * A real PostgreSQL server for the store's tests. CI (.ci/run) starts one and exports
 * PARLEY_TEST_DATABASE_URL: the tests use it, and fail when it does not answer. Without it a test
 * file starts its own throwaway cluster in a temporary folder from the Debian binaries, as the
 * `postgres` user (as examples/booking-service/scripts/start-postgres.sh does).
 */
export interface PostgresServer {
  /** A URL of the server's `postgres` database, as a superuser. */
  url: string;
  stop(): void;
}

export async function testPostgresServer(): Promise<PostgresServer> {
  const given = process.env.PARLEY_TEST_DATABASE_URL;
  if (given !== undefined && given !== '') return { url: given, stop: () => undefined };
  return startPostgresCluster();
}

/**
 * Starts a cluster of its own. With a password, logins over TCP need it (scram-sha-256), which the
 * wrong-password test relies on; without, every login is trusted.
 */
export async function startPostgresCluster(options: { password?: string } = {}): Promise<PostgresServer> {
  const binDir = postgresBinDir();
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-pg-'));
  const asPostgres = process.getuid?.() === 0;
  const postgresUid = asPostgres ? Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()) : undefined;
  const postgresGid = asPostgres ? Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()) : undefined;
  if (postgresUid !== undefined && postgresGid !== undefined) chownSync(dataDir, postgresUid, postgresGid);
  chmodSync(dataDir, 0o700);
  const run = (command: string, args: string[]): void => {
    execFileSync(join(binDir, command), args, { stdio: ['ignore', 'ignore', 'pipe'], ...(postgresUid === undefined ? {} : { uid: postgresUid, gid: postgresGid }) });
  };
  const auth = ['-A', 'trust'];
  const pwFile = join(dataDir, 'initial-password');
  if (options.password !== undefined) {
    writeFileSync(pwFile, `${options.password}\n`, { mode: 0o600 });
    if (postgresUid !== undefined && postgresGid !== undefined) chownSync(pwFile, postgresUid, postgresGid);
    auth.splice(0, 2, '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${pwFile}`);
  }
  const clusterDir = join(dataDir, 'cluster');
  run('initdb', ['-D', clusterDir, '-U', 'postgres', ...auth, '--no-sync']);
  rmSync(pwFile, { force: true });
  const port = await freePort();
  run('pg_ctl', ['-D', clusterDir, '-w', '-l', join(clusterDir, 'server.log'), '-o', `-p ${port} -k ${clusterDir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  const credentials = options.password === undefined ? 'postgres' : `postgres:${encodeURIComponent(options.password)}`;
  return {
    url: `postgres://${credentials}@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run('pg_ctl', ['-D', clusterDir, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Creates an empty database on the server for one test and returns its URL and how to drop it. */
export async function freshDatabase(server: PostgresServer): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `parley_test_${randomUUID().replaceAll('-', '')}`;
  const admin = openPgSync(parseDatabaseUrl(server.url));
  try {
    admin.exec(`CREATE DATABASE ${name}`);
  } finally {
    admin.close();
  }
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const again = openPgSync(parseDatabaseUrl(server.url));
      try {
        again.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        again.close();
      }
    },
  };
}

function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  let versions: string[] = [];
  try {
    versions = readdirSync(root).sort((a, b) => Number(a) - Number(b));
  } catch {
    // handled below
  }
  const newest = versions.at(-1);
  if (newest === undefined) {
    throw new Error('no PostgreSQL server for the store tests: set PARLEY_TEST_DATABASE_URL or apt-get install -y postgresql');
  }
  return join(root, newest, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
