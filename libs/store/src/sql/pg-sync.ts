import { fileURLToPath } from 'node:url';
import { ConfigError } from '@parley/core';
import type { DatabaseUrl } from './database-url.js';
import { DatabaseConnectionError, storeError } from './pg-errors.js';
import { pgStatement } from './placeholders.js';
import { PG_SYNC_WORKER_SOURCE } from './pg-sync-worker-source.js';
import type { SqlParams, SqlRow, SyncSql } from './sync-sql.js';

const WORKER_URL = new URL(`data:text/javascript,${encodeURIComponent(PG_SYNC_WORKER_SOURCE)}`);

/** How long opening a connection may take before the store gives up (the server is down or unreachable). */
const connectTimeoutMs = 10_000;

/**
 * How long one statement may take before the store stops waiting for it. Generous: pruning a long
 * history or copying a store is one long statement; a server that stopped answering is not.
 */
const statementWaitMs = 10 * 60_000;

interface Reply {
  ok: boolean;
  rows?: SqlRow[];
  changes?: number;
  message?: string;
  code?: string;
  connecting?: boolean;
}

/**
 * PostgreSQL behind the synchronous store interface: node-postgres runs in a worker thread with
 * one connection, and each statement is a request this thread waits for (Atomics.wait on a
 * shared flag, then the reply taken off the port). Waiting blocks this thread for the statement's
 * round trip, as a better-sqlite3 statement blocks it for its disk I/O; the store's writes are
 * batched so that a run makes few of them (docs/decisions.md, "A team store in PostgreSQL").
 *
 * The connection is made here: a wrong URL or password or an unreachable server fails the open
 * (exit 2, the password never shown).
 */
export function openPgSync(url: DatabaseUrl, options: { connectTimeoutMs?: number } = {}): SyncSql {
  // Taken here rather than imported: a run on SQLite loads this module with the store but never
  // opens PostgreSQL, and node:worker_threads is ~2 ms of Node's own modules to load.
  const { MessageChannel, receiveMessageOnPort, Worker } = process.getBuiltinModule('node:worker_threads');
  const flag = new SharedArrayBuffer(4);
  const signal = new Int32Array(flag);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_URL, {
    workerData: { requireFrom: fileURLToPath(import.meta.url), connectionString: url.connectionString, connectTimeoutMs: options.connectTimeoutMs ?? connectTimeoutMs, flag, port: port2 },
    transferList: [port2],
  });
  // A handle never closed must not keep the process alive.
  worker.unref();
  port1.unref();
  let depth = 0;
  let closed = false;

  const request = (message: object): Reply => {
    if (closed) throw new Error(`the PostgreSQL store ${url.shown} is closed`);
    Atomics.store(signal, 0, 0);
    port1.postMessage(message);
    if (Atomics.wait(signal, 0, 0, statementWaitMs) === 'timed-out') {
      closed = true;
      void worker.terminate();
      throw new ConfigError(`the PostgreSQL store ${url.shown} did not answer within ${statementWaitMs / 60_000} minutes`);
    }
    const reply = receiveMessageOnPort(port1)?.message as Reply | undefined;
    if (reply === undefined) throw new Error(`the PostgreSQL store's worker thread gave no answer`);
    return reply;
  };
  const send = (sql: string, params?: SqlParams): Reply => {
    const statement = params === undefined ? { text: sql, values: undefined } : pgStatement(sql, params);
    const reply = request({ ...statement, inTransaction: depth > 0 });
    if (reply.ok) return reply;
    const failure = Object.assign(new Error(reply.message ?? 'unknown error'), reply.code === undefined ? {} : { code: reply.code });
    if (reply.connecting) throw new DatabaseConnectionError(url, failure.message);
    throw storeError(failure, url);
  };

  // The first connection, now: a bad URL fails the open, not the first statement.
  try {
    send('SELECT 1');
  } catch (error) {
    closed = true;
    void worker.terminate();
    throw error;
  }

  const handle: SyncSql = {
    dialect: 'postgres',
    shown: url.shown,
    all: <Row extends SqlRow>(sql: string, params?: SqlParams) => (send(sql, params ?? []).rows ?? []) as Row[],
    get: <Row extends SqlRow>(sql: string, params?: SqlParams) => (send(sql, params ?? []).rows ?? [])[0] as Row | undefined,
    run: (sql, params) => ({ changes: send(sql, params ?? []).changes ?? 0 }),
    exec: (sql) => {
      send(sql);
    },
    transaction: <T>(work: () => T): T => {
      const savepoint = `parley_savepoint_${depth}`;
      send(depth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
      depth += 1;
      let result: T;
      try {
        result = work();
      } catch (error) {
        depth -= 1;
        try {
          send(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${savepoint}`);
        } catch {
          // The connection is gone: the server rolled the transaction back itself.
        }
        throw error;
      }
      depth -= 1;
      if (typeof (result as { then?: unknown } | undefined)?.then === 'function') {
        send(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${savepoint}`);
        throw new TypeError('a store transaction cannot run asynchronous work (it returned a promise)');
      }
      send(depth === 0 ? 'COMMIT' : `RELEASE SAVEPOINT ${savepoint}`);
      return result;
    },
    get inTransaction() {
      return depth > 0;
    },
    close: () => {
      if (closed) return;
      try {
        request({ close: true });
      } finally {
        closed = true;
        void worker.terminate();
        port1.close();
      }
    },
  };
  return handle;
}
