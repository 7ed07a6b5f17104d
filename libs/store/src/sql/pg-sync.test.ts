import { createServer, type Socket } from 'node:net';
import { ConfigError } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from './database-url.js';
import { DatabaseConnectionError } from './pg-errors.js';
import { openPgSync } from './pg-sync.js';
import { thrownBy } from '../test-support/thrown-by.js';

describe('opening the PostgreSQL store when the server is not usable', () => {
  it('a server that accepts the connection and never answers fails after the connect timeout', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const started = Date.now();
      const error = thrownBy(() => openPgSync(parseDatabaseUrl(`postgres://u:pw-1234@127.0.0.1:${port}/d`), { connectTimeoutMs: 300 }));
      expect(error).toBeInstanceOf(DatabaseConnectionError);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(`postgres://u:***@127.0.0.1:${port}/d`);
      expect((error as Error).message).not.toContain('pw-1234');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('a closed port is a configuration error naming the server without its password', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(() => openPgSync(parseDatabaseUrl(`postgres://u:pw-5678@127.0.0.1:${port}/d`))).toThrow(
      new RegExp(`cannot connect to the PostgreSQL store postgres://u:\\*\\*\\*@127\\.0\\.0\\.1:${port}/d: .*ECONNREFUSED`),
    );
  });
});
