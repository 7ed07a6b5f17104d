import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteExecutor } from './sqlite-executor.js';

const SqliteDatabase = createRequire(import.meta.url)('better-sqlite3') as typeof Database;

describe('sqliteExecutor', () => {
  it('runs statements, returns rows and binds booleans as 0/1', async () => {
    const executor = sqliteExecutor(new SqliteDatabase(':memory:'));
    await executor.run('CREATE TABLE t (k TEXT PRIMARY KEY, flag INTEGER)');
    expect(await executor.run('INSERT INTO t (k, flag) VALUES (?, ?), (?, ?)', ['a', true, 'b', false])).toEqual({ changes: 2 });
    expect(await executor.query('SELECT k, flag FROM t ORDER BY k')).toEqual([
      { k: 'a', flag: 1 },
      { k: 'b', flag: 0 },
    ]);
    await executor.close();
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const executor = sqliteExecutor(new SqliteDatabase(':memory:'));
    await executor.run('CREATE TABLE t (k TEXT PRIMARY KEY)');
    await executor.transaction(async (tx) => {
      await tx.run('INSERT INTO t (k) VALUES (?)', ['kept']);
    });
    await expect(
      executor.transaction(async (tx) => {
        await tx.run('INSERT INTO t (k) VALUES (?)', ['dropped']);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await executor.query('SELECT k FROM t')).toEqual([{ k: 'kept' }]);
    await executor.close();
  });

  it('queues a statement made outside behind an open transaction instead of running it inside', async () => {
    const executor = sqliteExecutor(new SqliteDatabase(':memory:'));
    await executor.run('CREATE TABLE t (k TEXT PRIMARY KEY)');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const rolledBack = executor.transaction(async (tx) => {
      await tx.run('INSERT INTO t (k) VALUES (?)', ['inside']);
      await gate;
      throw new Error('roll back');
    });
    const outside = executor.run('INSERT INTO t (k) VALUES (?)', ['outside']);
    release();
    await expect(rolledBack).rejects.toThrow('roll back');
    await outside;
    expect(await executor.query('SELECT k FROM t')).toEqual([{ k: 'outside' }]);
    await executor.close();
  });
});
