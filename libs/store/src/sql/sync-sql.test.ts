import { ConfigError } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { openSql } from '../open-sql.js';
import { storeDrivers, useStoreDriver } from '../test-support/each-driver.js';
import { startPostgresCluster } from '../test-support/postgres-server.js';
import { parseDatabaseUrl } from './database-url.js';
import { openPgSync } from './pg-sync.js';

describe.each(storeDrivers)('the store database on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('binds ? and @name placeholders, flags as 0/1, and reads 8-byte integers as numbers', () => {
    const sql = openSql(database.path);
    try {
      expect(sql.dialect).toBe(driver);
      sql.run('INSERT INTO shared_budgets (key, spent_micros, reserved_micros) VALUES (?, ?, ?)', ['pr-1', 2 ** 40, 0]);
      sql.run('INSERT INTO shared_budgets (key, spent_micros, reserved_micros) VALUES (@key, @spent, @spent)', { key: 'pr-2', spent: 7 });
      expect(sql.all('SELECT key, spent_micros, reserved_micros FROM shared_budgets ORDER BY key')).toEqual([
        { key: 'pr-1', spent_micros: 2 ** 40, reserved_micros: 0 },
        { key: 'pr-2', spent_micros: 7, reserved_micros: 7 },
      ]);
      expect(sql.get('SELECT key FROM shared_budgets WHERE key = ?', ['none'])).toBeUndefined();
      expect(sql.run('UPDATE shared_budgets SET spent_micros = spent_micros + 1 WHERE key <> ?', ['x']).changes).toBe(2);
      // A ? inside a literal is text, not a placeholder; @ inside a literal is text too.
      expect(sql.get("SELECT 'a?b@c' AS text, CAST(? AS INTEGER) AS value", [true])).toEqual({ text: 'a?b@c', value: 1 });
    } finally {
      sql.close();
    }
  });

  it('commits a transaction whole, rolls it back whole when its work throws, and a nested one alone', () => {
    const sql = openSql(database.path);
    const keys = (): string[] => sql.all<{ key: string }>('SELECT key FROM shared_budgets ORDER BY key').map((row) => row.key);
    try {
      sql.transaction(() => {
        sql.run("INSERT INTO shared_budgets (key) VALUES ('kept')");
        expect(sql.inTransaction).toBe(true);
        expect(() =>
          sql.transaction(() => {
            sql.run("INSERT INTO shared_budgets (key) VALUES ('inner')");
            throw new Error('inner fails');
          }),
        ).toThrow('inner fails');
      });
      expect(sql.inTransaction).toBe(false);
      expect(() =>
        sql.transaction(() => {
          sql.run("INSERT INTO shared_budgets (key) VALUES ('lost')");
          sql.run("INSERT INTO shared_budgets (key) VALUES ('kept')"); // primary key taken: the whole transaction goes
        }),
      ).toThrow();
      expect(keys()).toEqual(['kept']);
    } finally {
      sql.close();
    }
  });

  it('shares what one handle wrote with another handle of the same store', () => {
    const first = openSql(database.path);
    const second = openSql(database.path);
    try {
      first.run("INSERT INTO judge_claims (key, holder, lease_until_ms) VALUES ('k', 'a', 1)");
      first.close();
      expect(second.get('SELECT holder FROM judge_claims')).toEqual({ holder: 'a' });
    } finally {
      first.close();
      second.close();
    }
  });
});

describe('the PostgreSQL store cannot be reached', () => {
  it('fails the open with a clear error (exit 2) naming the server without its password', { timeout: 120_000 }, () => {
    const url = parseDatabaseUrl('postgres://parley:s3cret-pw@127.0.0.1:9/parley');
    let caught: unknown;
    try {
      openPgSync(url);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as Error).message).toContain('cannot connect to the PostgreSQL store postgres://parley:***@127.0.0.1:9/parley');
    expect((caught as Error).message).not.toContain('s3cret-pw');
  });

  it('refuses a wrong password without printing it', { timeout: 120_000 }, async () => {
    const server = await startPostgresCluster({ password: 'right-pw' });
    try {
      const wrong = new URL(server.url);
      wrong.password = 'wrong-pw';
      let caught: unknown;
      try {
        openPgSync(parseDatabaseUrl(wrong.href));
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as Error).message).toMatch(/password authentication failed/);
      expect((caught as Error).message).not.toContain('wrong-pw');
    } finally {
      server.stop();
    }
  });
});
