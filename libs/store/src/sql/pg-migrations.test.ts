import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../open-database.js';
import { DatabaseVersionError, migrations } from '../migrations.js';
import { freshDatabase, type PostgresServer, testPostgresServer } from '../test-support/postgres-server.js';
import { parseDatabaseUrl } from './database-url.js';
import { ConfigError } from '@parley/core';
import { DatabaseReadOnlyError } from './pg-errors.js';
import { migratePgSync as migratePg, pgSchemaVersionSync as pgSchemaVersion } from './pg-migrations.js';
import { pgMigrations } from './pg-schema.js';
import { openPgSync } from './pg-sync.js';
import type { SyncSql } from './sync-sql.js';
import { thrownBy } from '../test-support/thrown-by.js';

const MIGRATE_PG = fileURLToPath(new URL('../test-support/migrate-pg.mjs', import.meta.url));

/** A racer process: resolves `ready` once connected; `go` starts its migration; `done` is its output. */
function racer(url: string): { ready: Promise<void>; go: () => void; done: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, [MIGRATE_PG, url], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (output.includes('ready\n')) markReady();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const done = new Promise<{ code: number | null; output: string }>((resolve) => {
    child.on('close', (code) => {
      markReady();
      resolve({ code, output });
    });
  });
  return { ready, go: () => child.stdin.end('go\n'), done };
}

let server: PostgresServer;
beforeAll(async () => {
  server = await testPostgresServer();
}, 60_000);
afterAll(() => server?.stop());

async function withDatabase(work: (url: string) => Promise<void>): Promise<void> {
  const database = await freshDatabase(server);
  try {
    await work(database.url);
  } finally {
    await database.drop();
  }
}

function columnsByTable(executor: SyncSql): Map<string, string[]> {
  const rows = executor.all<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  const tables = new Map<string, string[]>();
  for (const row of rows) tables.set(row.table_name, [...(tables.get(row.table_name) ?? []), row.column_name]);
  return tables;
}

describe('migratePg against a real PostgreSQL', () => {
  it('creates every table of the SQLite store, with the same columns, and records each step once', async () => {
    await withDatabase(async (url) => {
      const executor = openPgSync(parseDatabaseUrl(url));
      try {
        expect(pgSchemaVersion(executor)).toBe(0);
        expect(migratePg(executor)).toBe(pgMigrations.length);
        expect(migratePg(executor)).toBe(pgMigrations.length);
        expect(executor.all('SELECT version, description FROM parley_schema_steps ORDER BY version')).toEqual(
          pgMigrations.map((step, index) => ({ version: index + 1, description: step.description })),
        );
        const pgTables = columnsByTable(executor);
        const sqlite = openDatabase(':memory:', migrations);
        const sqliteTables = sqlite
          .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
          .pluck()
          .all() as string[];
        for (const table of sqliteTables) {
          const columns = (sqlite.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]).sort();
          expect([table, [...(pgTables.get(table) ?? [])].sort()]).toEqual([table, columns]);
        }
        sqlite.close();
        // The PostgreSQL store's own bookkeeping is its only table SQLite has not.
        expect([...pgTables.keys()].filter((table) => !sqliteTables.includes(table)).sort()).toEqual(['parley_schema_steps']);
      } finally {
        executor.close();
      }
    });
  });

  it('brings a database at the previous version up to date', async () => {
    await withDatabase(async (url) => {
      const executor = openPgSync(parseDatabaseUrl(url));
      try {
        expect(migratePg(executor, pgMigrations.slice(0, 1))).toBe(1);
        expect(executor.all(`SELECT to_regclass('shared_budgets')::text AS present`)).toEqual([{ present: null }]);
        executor.run(`INSERT INTO runs (id, suite, mode, started_at, parley_version, options_json, out_dir) VALUES ('r1', 's', 'live', 't', 'v', '{}', 'o')`);
        expect(migratePg(executor)).toBe(pgMigrations.length);
        expect(pgSchemaVersion(executor)).toBe(pgMigrations.length);
        expect(executor.all('SELECT id FROM runs')).toEqual([{ id: 'r1' }]);
      } finally {
        executor.close();
      }
    });
  });

  it('two real processes started together on an empty database (compiled library) both end at the last version, each step applied once', async () => {
    await withDatabase(async (url) => {
      const racers = [racer(url), racer(url)];
      await Promise.all(racers.map((each) => each.ready));
      for (const each of racers) each.go();
      const results = await Promise.all(racers.map((each) => each.done));
      expect(results).toEqual(racers.map(() => ({ code: 0, output: `ready\nversion ${pgMigrations.length}\n` })));
      const executor = openPgSync(parseDatabaseUrl(url));
      try {
        expect(executor.all('SELECT COUNT(*) AS steps FROM parley_schema_steps')).toEqual([{ steps: pgMigrations.length }]);
      } finally {
        executor.close();
      }
    });
  });

  it('refuses a database written by a newer Parley, before writing anything, without the password', async () => {
    await withDatabase(async (url) => {
      const withPassword = new URL(url);
      withPassword.password = 'unused-secret-77';
      const parsed = parseDatabaseUrl(withPassword.href);
      // The test server lets its user in without a password; the one in the URL must still never show.
      const executor = openPgSync(parsed);
      try {
        migratePg(executor);
        executor.run(`INSERT INTO parley_schema_steps (version, description, applied_at) VALUES (99, 'from the future', 'now')`);
        executor.run('DROP TABLE judge_claims');
        const error = thrownBy(() => migratePg(executor));
        expect(error).toBeInstanceOf(DatabaseVersionError);
        expect(error).toMatchObject({ foundVersion: 99, knownVersion: pgMigrations.length });
        expect((error as Error).message).toContain(parsed.shown);
        expect((error as Error).message).not.toContain('unused-secret-77');
        expect(executor.all(`SELECT to_regclass('judge_claims')::text AS present`)).toEqual([{ present: null }]);
      } finally {
        executor.close();
      }
    });
  });

  it('a read-only database: an up-to-date one opens, an old one is refused as read-only with nothing written', async () => {
    await withDatabase(async (url) => {
      const name = new URL(url).pathname.slice(1);
      const owner = openPgSync(parseDatabaseUrl(url));
      try {
        migratePg(owner, pgMigrations.slice(0, 1));
        owner.run(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
      } finally {
        owner.close();
      }
      const readOnly = openPgSync(parseDatabaseUrl(url));
      try {
        expect(migratePg(readOnly, pgMigrations.slice(0, 1))).toBe(1);
        const error = thrownBy(() => migratePg(readOnly));
        expect(error).toBeInstanceOf(DatabaseReadOnlyError);
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as Error).message).toMatch(/is read-only \(cannot execute CREATE TABLE in a read-only transaction\)/);
        expect(pgSchemaVersion(readOnly)).toBe(1);
      } finally {
        readOnly.close();
      }
    });
  });

  it('a failing step leaves the database as it was: no table of the migration, no version recorded', async () => {
    await withDatabase(async (url) => {
      const executor = openPgSync(parseDatabaseUrl(url));
      try {
        const steps = [pgMigrations[0]!, { description: 'broken', sql: 'CREATE TABLE broken (x NOPE_TYPE)' }];
        expect(() => migratePg(executor, steps)).toThrow(/schema step 2 \(broken\) failed: type "nope_type" does not exist/);
        expect(pgSchemaVersion(executor)).toBe(0);
        expect(executor.all(`SELECT to_regclass('runs')::text AS present`)).toEqual([{ present: null }]);
      } finally {
        executor.close();
      }
    });
  });
});
