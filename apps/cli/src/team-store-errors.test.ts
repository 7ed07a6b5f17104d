import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The store's PostgreSQL test server and driver are test support here, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { freshDatabase, type PostgresServer, startPostgresCluster, testPostgresServer } from '../../../libs/store/src/test-support/postgres-server.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { parseDatabaseUrl } from '../../../libs/store/src/sql/database-url.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { migratePgSync } from '../../../libs/store/src/sql/pg-migrations.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { openPgSync } from '../../../libs/store/src/sql/pg-sync.js';
import { copyExample } from './test-support/example-copy.js';
import { parleyAsync } from './test-support/parley-process.js';

/**
 * The team store's failures through the real `parley` binary (docs/team-store.md, "Credentials"):
 * each is the user's to fix, so exit 2 with one line, the password never printed, and nothing
 * half-written (no run row, no report folder of a run that could not start).
 */
let server: PostgresServer;
beforeAll(async () => {
  server = await testPostgresServer();
}, 120_000);
afterAll(() => server?.stop());

const password = 'n0t-to-be-printed-4471';

function withPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.href;
}

function admin<T>(url: string, work: (sql: ReturnType<typeof openPgSync>) => T): T {
  const sql = openPgSync(parseDatabaseUrl(url));
  try {
    return work(sql);
  } finally {
    sql.close();
  }
}

function expectRefused(result: { status: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(result.status, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(result.stdout + result.stderr).not.toContain(password);
}

describe('parley with a team store that cannot be used', () => {
  it('an unreachable server: exit 2 naming it with *** for the password, no report folder, no local database', async () => {
    const suite = copyExample('booking');
    const run = await parleyAsync(['run', '.', '--out', 'out'], { cwd: suite, env: { PARLEY_DATABASE_URL: `postgres://parley:${password}@127.0.0.1:1/team` } });
    expectRefused(run, /cannot connect to the PostgreSQL store postgres:\/\/parley:\*\*\*@127\.0\.0\.1:1\/team: .*ECONNREFUSED/);
    expect(existsSync(join(suite, 'out'))).toBe(false);
    expect(existsSync(join(suite, '.parley', 'parley.db'))).toBe(false);
    const list = await parleyAsync(['runs', 'list'], { cwd: suite, env: { PARLEY_DATABASE_URL: `postgres://parley:${password}@127.0.0.1:1/team` } });
    expectRefused(list, /cannot connect to the PostgreSQL store/);
  }, 120_000);

  it('a wrong password: exit 2, the server says so, the password is not repeated', async () => {
    const guarded = await startPostgresCluster({ password: 'the-right-one-5521' });
    try {
      const suite = copyExample('booking');
      const run = await parleyAsync(['run', '.', '--out', 'out'], { cwd: suite, env: { PARLEY_DATABASE_URL: withPassword(guarded.url) } });
      expectRefused(run, /cannot connect to the PostgreSQL store postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/\w*: password authentication failed/);
      expect(run.stderr).not.toContain('the-right-one-5521');
      expect(existsSync(join(suite, 'out'))).toBe(false);
    } finally {
      guarded.stop();
    }
  }, 180_000);

  it('a database written by a newer Parley: exit 2 before anything is written', async () => {
    const database = await freshDatabase(server);
    try {
      admin(database.url, (sql) => {
        migratePgSync(sql);
        sql.run(`INSERT INTO parley_schema_steps (version, description, applied_at) VALUES (99, 'from the future', 'now')`);
      });
      const suite = copyExample('booking');
      const run = await parleyAsync(['run', '.', '--out', 'out'], { cwd: suite, env: { PARLEY_DATABASE_URL: withPassword(database.url) } });
      expectRefused(run, /written by a newer Parley \(schema version 99/);
      expect(run.stderr).toContain(':***@');
      expect(existsSync(join(suite, 'out'))).toBe(false);
      expect(admin(database.url, (sql) => sql.get<{ runs: number }>('SELECT COUNT(*) AS runs FROM runs'))).toEqual({ runs: 0 });
    } finally {
      await database.drop();
    }
  }, 120_000);

  it('a read-only database (default_transaction_read_only, as a replica): reads work, a run is refused with exit 2 and leaves no row', async () => {
    const database = await freshDatabase(server);
    try {
      const suite = copyExample('booking');
      const env = { PARLEY_DATABASE_URL: withPassword(database.url) };
      const first = await parleyAsync(['run', '.', '--out', 'first'], { cwd: suite, env });
      expect(first.status, first.stderr).toBe(0);
      const name = new URL(database.url).pathname.slice(1);
      admin(database.url, (sql) => sql.exec(`ALTER DATABASE ${name} SET default_transaction_read_only = on`));
      const before = admin(database.url, (sql) => sql.all('SELECT id FROM runs ORDER BY id'));
      expect(before).toHaveLength(1);

      const list = await parleyAsync(['runs', 'list', '--format', 'json'], { cwd: suite, env });
      expect(list.status, list.stderr).toBe(0);
      expect((JSON.parse(list.stdout) as unknown[]).length).toBe(1);

      const second = await parleyAsync(['run', '.', '--out', 'second'], { cwd: suite, env });
      expectRefused(second, /the PostgreSQL store postgres:\/\/postgres:\*\*\*@.* is read-only \(.*read-only transaction\); point PARLEY_DATABASE_URL at the primary server/);
      expect(admin(database.url, (sql) => sql.all('SELECT id FROM runs ORDER BY id'))).toEqual(before);
    } finally {
      await database.drop();
    }
  }, 180_000);

  it('a read-only role (granted SELECT only): reads work; a run and a prune are refused with exit 2 naming the role, not an internal error, and leave no row', async () => {
    const database = await freshDatabase(server);
    const role = `reader_${new URL(database.url).pathname.slice(-8)}`;
    try {
      const suite = copyExample('booking');
      for (const out of ['first', 'second']) {
        const owned = await parleyAsync(['run', '.', '--out', out], { cwd: suite, env: { PARLEY_DATABASE_URL: database.url } });
        expect(owned.status, owned.stderr).toBe(0);
      }
      // The prune has a run to remove.
      const config = join(suite, 'parley.yaml');
      writeFileSync(config, readFileSync(config, 'utf8').replace(/^settings:\n/m, 'settings:\n  history: { keep_runs: 1 }\n'));
      admin(database.url, (sql) => {
        sql.exec(`CREATE ROLE ${role} LOGIN`);
        sql.exec(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${role}`);
      });
      const asReader = new URL(withPassword(database.url));
      asReader.username = role;
      const env = { PARLEY_DATABASE_URL: asReader.href };
      const before = admin(database.url, (sql) => sql.all('SELECT id FROM runs ORDER BY id'));

      const list = await parleyAsync(['runs', 'list', '--format', 'json'], { cwd: suite, env });
      expect(list.status, list.stderr).toBe(0);
      expect((JSON.parse(list.stdout) as unknown[]).length).toBe(2);

      const refusal = new RegExp(`the PostgreSQL store postgres://${role}:\\*\\*\\*@.* refused role "${role}" \\(permission denied for table \\w+\\): commands that write`);
      const third = await parleyAsync(['run', '.', '--out', 'third'], { cwd: suite, env });
      expectRefused(third, refusal);
      expect(third.stderr).not.toContain('.parley/parley.db');
      const prune = await parleyAsync(['runs', 'prune'], { cwd: suite, env });
      expectRefused(prune, refusal);
      expect(admin(database.url, (sql) => sql.all('SELECT id FROM runs ORDER BY id'))).toEqual(before);
    } finally {
      await database.drop();
      admin(server.url, (sql) => sql.exec(`DROP ROLE IF EXISTS ${role}`));
    }
  }, 180_000);
});

describe("parley.yaml's settings.store.url_env", () => {
  it('puts the run in the database the named variable holds; unset, the command stops with exit 2 naming it', async () => {
    const database = await freshDatabase(server);
    try {
      const suite = copyExample('booking');
      const config = join(suite, 'parley.yaml');
      writeFileSync(config, `${readFileSync(config, 'utf8').replace(/^settings:\n/m, 'settings:\n  store: { url_env: TEAM_STORE_URL }\n')}`);
      expect(readFileSync(config, 'utf8')).toContain('url_env: TEAM_STORE_URL');

      const run = await parleyAsync(['run', '.', '--out', 'out'], { cwd: suite, env: { TEAM_STORE_URL: withPassword(database.url) } });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout + run.stderr).not.toContain(password);
      expect(existsSync(join(suite, '.parley', 'parley.db'))).toBe(false);
      const stored = admin(database.url, (sql) => sql.all<{ suite: string }>('SELECT suite FROM runs'));
      expect(stored).toEqual([{ suite: 'ratiba_booking' }]);
      // runs list reads no parley.yaml: it goes by PARLEY_DATABASE_URL.
      const list = await parleyAsync(['runs', 'list', '--format', 'json'], { cwd: suite, env: { PARLEY_DATABASE_URL: database.url } });
      expect((JSON.parse(list.stdout) as Array<{ suite: string }>).map((each) => each.suite)).toEqual(['ratiba_booking']);

      const unset = await parleyAsync(['run', '.', '--out', 'again'], { cwd: suite });
      expectRefused(unset, /settings\.store\.url_env names TEAM_STORE_URL, which is not set/);
      // validate does not need the variable.
      const validate = await parleyAsync(['validate', '.'], { cwd: suite });
      expect(validate.status, validate.stderr).toBe(0);
    } finally {
      await database.drop();
    }
  }, 180_000);
});
