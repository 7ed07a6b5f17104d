import { chunksOf } from './chunks.js';
import { openSql } from './open-sql.js';
import type { SqlRow, SyncSql } from './sql/sync-sql.js';

/** What the outbox holds: Langfuse scores of `parley monitor`, exports of finished runs. */
export type OutboxKind = 'monitor_score' | 'run_export';

/** An item to deliver, as it is added. */
export interface OutboxEntry {
  kind: OutboxKind;
  /** Where it goes, without credentials (see outboxDestination). */
  destination: string;
  /** The item's own id at the destination (a score id, a run id). */
  item_key: string;
  suite: string;
  /** JSON text of what to send. */
  payload_json: string;
  created_at: string;
}

/** A pending item with its delivery attempts so far. */
export interface PendingDelivery extends OutboxEntry {
  attempts: number;
  last_error: string | null;
}

/**
 * The delivery outbox in the store (`.parley/parley.db` or the team's PostgreSQL): what Parley owes Langfuse or an OTLP collector. An
 * item is added in the same transaction as what it reports (see MonitorStore.saveAll), and marked
 * delivered only after the destination accepted it; until then every run sends it again first.
 * Adding an item that is there already replaces its payload and makes it pending again (a score
 * judged again is sent again).
 */
export interface OutboxStore {
  /**
   * Adds items (pending). With `claim`, they are added already claimed by its sender until
   * `untilMs`, as claimPending would: a process that sends what it adds at once (`run --export`)
   * is never doubled by another sending the outbox meanwhile.
   */
  add(entries: readonly OutboxEntry[], claim?: { sender: string; untilMs: number }): void;
  /** Pending items of a kind for one destination, oldest first. */
  pending(kind: OutboxKind, destination: string): PendingDelivery[];
  /**
   * Pending items of a kind for one destination that no other process is sending, oldest first,
   * claimed for `sender` until `nowMs + leaseMs` (two monitor jobs never send one score twice).
   * delivered() and failed() end the claim; a sender that died leaves it to the lease, unless
   * `abandoned` says it is gone (a process of this machine that died).
   */
  claimPending(kind: OutboxKind, destination: string, sender: string, nowMs: number, leaseMs: number, abandoned?: (sender: string) => boolean): PendingDelivery[];
  /** How many items of a kind wait for other destinations (said, never sent elsewhere). */
  pendingElsewhere(kind: OutboxKind, destination: string): number;
  /** The destination accepted the item: it is never sent again. */
  delivered(kind: OutboxKind, destination: string, itemKey: string, at: string): void;
  /** A delivery attempt failed: the item stays pending, with the reason. */
  failed(kind: OutboxKind, destination: string, itemKeys: readonly string[], error: string, at: string): void;
  close(): void;
}

/** The outbox of the store at `path` on a handle of its own. */
export function openOutbox(path: string): OutboxStore {
  return outboxOn(openSql(path), true);
}

/** Items per INSERT: 8 values each, well under both databases' limits on bound parameters. */
const ROWS_PER_INSERT = 100;
const IDS_PER_UPDATE = 500;

/**
 * The outbox on an open handle (a store that writes items in its own transactions, as the monitor
 * store does); close() closes the handle only when `owns`.
 */
export function outboxOn(sql: SyncSql, owns = false): OutboxStore {
  return {
    add(entries, claim) {
      if (entries.length === 0) return;
      // An item added twice keeps its last payload (one statement may not upsert a row twice on PostgreSQL).
      const latest = new Map<string, OutboxEntry>();
      for (const entry of entries) {
        const key = JSON.stringify([entry.kind, entry.destination, entry.item_key]);
        latest.delete(key);
        latest.set(key, entry);
      }
      sql.transaction(() => {
        for (const chunk of chunksOf([...latest.values()], ROWS_PER_INSERT)) {
          sql.run(
            `INSERT INTO outbox (kind, destination, item_key, suite, payload_json, created_at, sender, sending_until_ms)
             VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
             ON CONFLICT (kind, destination, item_key) DO UPDATE SET suite = excluded.suite, payload_json = excluded.payload_json,
               created_at = excluded.created_at, attempts = 0, last_attempt_at = NULL, last_error = NULL, delivered_at = NULL,
               sender = excluded.sender, sending_until_ms = excluded.sending_until_ms`,
            chunk.flatMap((entry) => [entry.kind, entry.destination, entry.item_key, entry.suite, entry.payload_json, entry.created_at, claim?.sender ?? null, claim?.untilMs ?? null]),
          );
        }
      });
    },
    pending(kind, destination) {
      const rows = sql.all<PendingDelivery & SqlRow>(
        `SELECT kind, destination, item_key, suite, payload_json, created_at, attempts, last_error FROM outbox
         WHERE kind = ? AND destination = ? AND delivered_at IS NULL ORDER BY created_at, item_key`,
        [kind, destination],
      );
      return rows.map((row) => ({ ...row, attempts: Number(row.attempts) }));
    },
    claimPending(kind, destination, sender, nowMs, leaseMs, abandoned) {
      const senders = sql
        .all<{ sender: string }>('SELECT DISTINCT sender FROM outbox WHERE kind = ? AND destination = ? AND delivered_at IS NULL AND sender IS NOT NULL AND sending_until_ms >= ?', [
          kind,
          destination,
          nowMs,
        ])
        .map((row) => row.sender);
      const gone = [sender, ...senders.filter((other) => other !== sender && abandoned?.(other) === true)];
      // One UPDATE: on PostgreSQL a second sender waits for the first one's row locks, then sees its claims.
      const rows = sql.all<PendingDelivery & SqlRow>(
        `UPDATE outbox SET sender = ?, sending_until_ms = ?
         WHERE kind = ? AND destination = ? AND delivered_at IS NULL AND (sending_until_ms IS NULL OR sending_until_ms < ? OR sender IN (${gone.map(() => '?').join(',')}))
         RETURNING kind, destination, item_key, suite, payload_json, created_at, attempts, last_error`,
        [sender, nowMs + leaseMs, kind, destination, nowMs, ...gone],
      );
      return rows
        .map((row) => ({ ...row, attempts: Number(row.attempts) }))
        .sort((left, right) => (left.created_at === right.created_at ? compareText(left.item_key, right.item_key) : compareText(left.created_at, right.created_at)));
    },
    pendingElsewhere(kind, destination) {
      const row = sql.get<{ count: number | string }>('SELECT COUNT(*) AS count FROM outbox WHERE kind = ? AND destination <> ? AND delivered_at IS NULL', [kind, destination]);
      return Number(row?.count ?? 0);
    },
    delivered(kind, destination, itemKey, at) {
      // One commit per accepted item: a kill right after the destination accepted it sends at most that item again.
      sql.run('UPDATE outbox SET delivered_at = ?, attempts = attempts + 1, last_attempt_at = ?, last_error = NULL, sender = NULL, sending_until_ms = NULL WHERE kind = ? AND destination = ? AND item_key = ?', [
        at,
        at,
        kind,
        destination,
        itemKey,
      ]);
    },
    failed(kind, destination, itemKeys, error, at) {
      if (itemKeys.length === 0) return;
      sql.transaction(() => {
        for (const chunk of chunksOf([...new Set(itemKeys)], IDS_PER_UPDATE)) {
          sql.run(
            `UPDATE outbox SET attempts = attempts + 1, last_attempt_at = ?, last_error = ?, sender = NULL, sending_until_ms = NULL
           WHERE kind = ? AND destination = ? AND delivered_at IS NULL AND item_key IN (${chunk.map(() => '?').join(',')})`,
            [at, error, kind, destination, ...chunk],
          );
        }
      });
    },
    close() {
      if (owns) sql.close();
    },
  };
}

/** Byte order, as both databases' ORDER BY on these ASCII keys and ISO times. */
function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
