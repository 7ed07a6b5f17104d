import type Database from 'better-sqlite3';
import { openDatabase } from './open-database.js';

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
 * The delivery outbox in `.parley/parley.db`: what Parley owes Langfuse or an OTLP collector. An
 * item is added in the same transaction as what it reports (see MonitorStore.saveAll), and marked
 * delivered only after the destination accepted it; until then every run sends it again first.
 * Adding an item that is there already replaces its payload and makes it pending again (a score
 * judged again is sent again).
 */
export interface OutboxStore {
  add(entries: readonly OutboxEntry[]): void;
  /** Pending items of a kind for one destination, oldest first. */
  pending(kind: OutboxKind, destination: string): PendingDelivery[];
  /** How many items of a kind wait for other destinations (said, never sent elsewhere). */
  pendingElsewhere(kind: OutboxKind, destination: string): number;
  /** The destination accepted the item: it is never sent again. */
  delivered(kind: OutboxKind, destination: string, itemKey: string, at: string): void;
  /** A delivery attempt failed: the item stays pending, with the reason. */
  failed(kind: OutboxKind, destination: string, itemKeys: readonly string[], error: string, at: string): void;
  close(): void;
}

/** The outbox of the database at `path` on a connection of its own. */
export function openOutbox(path: string): OutboxStore {
  return outboxOn(openDatabase(path), true);
}

/** The outbox on an open connection (a store that writes items in its own transactions); close() closes the connection only when `owns`. */
export function outboxOn(database: Database.Database, owns = false): OutboxStore {
  const insert = database.prepare<[OutboxEntry]>(`
    INSERT INTO outbox (kind, destination, item_key, suite, payload_json, created_at)
    VALUES (@kind, @destination, @item_key, @suite, @payload_json, @created_at)
    ON CONFLICT (kind, destination, item_key) DO UPDATE SET suite = excluded.suite, payload_json = excluded.payload_json,
      created_at = excluded.created_at, attempts = 0, last_attempt_at = NULL, last_error = NULL, delivered_at = NULL`);
  const addAll = database.transaction((entries: readonly OutboxEntry[]) => {
    for (const entry of entries) insert.run(entry);
  });
  const selectPending = database.prepare<[string, string], PendingDelivery>(`
    SELECT kind, destination, item_key, suite, payload_json, created_at, attempts, last_error FROM outbox
    WHERE kind = ? AND destination = ? AND delivered_at IS NULL ORDER BY created_at, item_key`);
  const countElsewhere = database.prepare<[string, string], number>('SELECT COUNT(*) FROM outbox WHERE kind = ? AND destination <> ? AND delivered_at IS NULL').pluck();
  const markDelivered = database.prepare('UPDATE outbox SET delivered_at = ?, attempts = attempts + 1, last_attempt_at = ?, last_error = NULL WHERE kind = ? AND destination = ? AND item_key = ?');
  const markFailed = database.prepare('UPDATE outbox SET attempts = attempts + 1, last_attempt_at = ?, last_error = ? WHERE kind = ? AND destination = ? AND item_key = ? AND delivered_at IS NULL');
  const failAll = database.transaction((kind: string, destination: string, keys: readonly string[], error: string, at: string) => {
    for (const key of keys) markFailed.run(at, error, kind, destination, key);
  });
  return {
    add(entries) {
      if (entries.length > 0) addAll(entries);
    },
    pending(kind, destination) {
      return selectPending.all(kind, destination);
    },
    pendingElsewhere(kind, destination) {
      return countElsewhere.get(kind, destination) ?? 0;
    },
    delivered(kind, destination, itemKey, at) {
      // One commit per accepted item: a kill right after the destination accepted it sends at most that item again.
      markDelivered.run(at, at, kind, destination, itemKey);
    },
    failed(kind, destination, itemKeys, error, at) {
      if (itemKeys.length > 0) failAll(kind, destination, itemKeys, error, at);
    },
    close() {
      if (owns) database.close();
    },
  };
}
