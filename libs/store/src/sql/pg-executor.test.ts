import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '@parley/core';
import { freshDatabase, type PostgresServer, startPostgresCluster, testPostgresServer } from '../test-support/postgres-server.js';
import { parseDatabaseUrl } from './database-url.js';
import { DatabaseConnectionError, openPgExecutor } from './pg-executor.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await testPostgresServer();
}, 60_000);
afterAll(() => server?.stop());

describe('openPgExecutor against a real PostgreSQL', () => {
  it('runs shared SQL: ? placeholders, ON CONFLICT upserts, 8-byte integers as numbers', async () => {
    const database = await freshDatabase(server);
    const executor = await openPgExecutor(parseDatabaseUrl(database.url));
    try {
      await executor.run('CREATE TABLE t (k TEXT PRIMARY KEY, n BIGINT NOT NULL)');
      await executor.run('INSERT INTO t (k, n) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET n = t.n + excluded.n', ['a', 2]);
      const upserted = await executor.run('INSERT INTO t (k, n) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET n = t.n + excluded.n', ['a', 3]);
      expect(upserted.changes).toBe(1);
      expect(await executor.query("SELECT k, n, COUNT(*) OVER () AS total, '?' AS mark FROM t WHERE k = ?", ['a'])).toEqual([
        { k: 'a', n: 5, total: 1, mark: '?' },
      ]);
    } finally {
      await executor.close();
      await database.drop();
    }
  });

  it('commits a transaction on one connection and rolls back one that throws', async () => {
    const database = await freshDatabase(server);
    const executor = await openPgExecutor(parseDatabaseUrl(database.url));
    try {
      await executor.run('CREATE TABLE t (k TEXT PRIMARY KEY)');
      await executor.transaction(async (tx) => {
        await tx.run('INSERT INTO t (k) VALUES (?)', ['kept']);
        // Inside, the transaction sees its own uncommitted row.
        expect(await tx.query('SELECT k FROM t')).toEqual([{ k: 'kept' }]);
      });
      await expect(
        executor.transaction(async (tx) => {
          await tx.run('INSERT INTO t (k) VALUES (?)', ['dropped']);
          await tx.run('INSERT INTO t (k) VALUES (?)', ['kept']);
        }),
      ).rejects.toMatchObject({ code: '23505' });
      expect(await executor.query('SELECT k FROM t')).toEqual([{ k: 'kept' }]);
    } finally {
      await executor.close();
      await database.drop();
    }
  });
});

describe('connection errors', () => {
  it('a wrong password is a configuration error that names the server but never the password', async () => {
    const right = 'correct-horse-4417';
    const guarded = await startPostgresCluster({ password: right });
    try {
      const wrong = 'wrong-staple-9923';
      const url = parseDatabaseUrl(guarded.url.replace(encodeURIComponent(right), wrong));
      const error = await openPgExecutor(url).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(DatabaseConnectionError);
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toMatch(/password authentication failed/);
      expect(message).toContain('postgres://postgres:***@127.0.0.1:');
      expect(message).not.toContain(wrong);
      expect(JSON.stringify(error)).not.toContain(wrong);
      // The right password opens it: the refusal above was the password's.
      const executor = await openPgExecutor(parseDatabaseUrl(guarded.url));
      expect(await executor.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      await executor.close();
    } finally {
      guarded.stop();
    }
  }, 60_000);

  it('a server that accepts the connection and never answers fails after the connect timeout', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const started = Date.now();
      await expect(openPgExecutor(parseDatabaseUrl(`postgres://u:pw-1234@127.0.0.1:${port}/d`), { connectTimeoutMs: 300 })).rejects.toThrow(
        DatabaseConnectionError,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('a closed port is a configuration error naming the server', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(openPgExecutor(parseDatabaseUrl(`postgres://u:pw-5678@127.0.0.1:${port}/d`))).rejects.toThrow(
      new RegExp(`cannot connect to the PostgreSQL store postgres://u:\\*\\*\\*@127\\.0\\.0\\.1:${port}/d: .*ECONNREFUSED`),
    );
  });
});
