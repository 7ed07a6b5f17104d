/**
 * The worker thread behind the PostgreSQL store (pg-sync.ts), as source text: it runs from a
 * `data:` URL, so the bundled CLI needs no file of its own for it. It holds one connection
 * (node-postgres's Client, loaded with a `require` rooted where the store's code is) and answers
 * one request at a time: the thread that waits for it is blocked, so there is never a second.
 *
 * A request is `{ text, values, inTransaction }` or `{ close: true }`; the answer is posted on the
 * port and then the shared flag is set to 1 and notified. Integers of 8 bytes come back as numbers,
 * as SQLite gives them. A connection lost between statements is opened again on the next request,
 * except inside a transaction, whose statements would then run outside it: that request fails.
 */
export const PG_SYNC_WORKER_SOURCE = `
import { workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
const { requireFrom, connectionString, connectTimeoutMs, flag, port } = workerData;
const pg = createRequire(requireFrom)('pg');
const signal = new Int32Array(flag);
const types = { getTypeParser: (oid, format) => (oid === 20 ? Number : pg.types.getTypeParser(oid, format)) };
let client;
let lost = false;
const connect = async () => {
  const next = new pg.Client({ connectionString, connectionTimeoutMillis: connectTimeoutMs, types });
  next.on('error', () => { if (client === next) { client = undefined; lost = true; } });
  try {
    await next.connect();
  } catch (error) {
    await next.end().catch(() => undefined);
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { connecting: true });
  }
  client = next;
};
const describe = (error) => {
  const messageOf = (e) => (e instanceof AggregateError && e.errors.length > 0 ? e.errors.map(messageOf).join('; ') : e instanceof Error ? (e.message === '' ? e.name : e.message) : String(e));
  return { ok: false, message: messageOf(error), code: typeof error?.code === 'string' ? error.code : undefined, connecting: error?.connecting === true };
};
const answer = (reply) => {
  port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
};
port.on('message', async (request) => {
  try {
    if (request.close) {
      const open = client;
      client = undefined;
      await open?.end().catch(() => undefined);
      answer({ ok: true, rows: [], changes: 0 });
      return;
    }
    if (client === undefined) {
      if (lost && request.inTransaction) throw new Error('the connection to the PostgreSQL store was lost inside a transaction; nothing of it was committed');
      lost = false;
      await connect();
    }
    const result = await client.query(request.values === undefined ? request.text : { text: request.text, values: request.values });
    const last = Array.isArray(result) ? result.at(-1) : result;
    answer({ ok: true, rows: last?.rows ?? [], changes: last?.rowCount ?? 0 });
  } catch (error) {
    answer(describe(error));
  }
});
`;
