import type Database from 'better-sqlite3';
import { openDatabase } from './open-database.js';

/** A provider batch `parley monitor --batch` submitted, and where it is. */
export interface MonitorBatch {
  suite: string;
  batch_id: string;
  /** openai or anthropic. */
  provider: string;
  model: string;
  submitted_at: string;
  /** in_progress until collected; failed when the provider gave up on it (expired, cancelled). */
  status: 'in_progress' | 'collected' | 'failed';
  collected_at: string | null;
  /** Request keys of its requests (the recording key: the same judge request in a later run has the same one). */
  requests: number;
}

/** A request of a collected batch: the provider's answer body (JSON) or why there is none. */
export interface BatchAnswerRow {
  batch_id: string;
  provider: string;
  /** The provider's answer as JSON text; null when the request failed. */
  body: string | null;
  error: string | null;
}

/**
 * The batches of `parley monitor --batch` in `.parley/parley.db`: what was submitted (so a second
 * run collects instead of resubmitting) and, once collected, each request's answer, found again by
 * the request key of the judge request that asked it.
 */
export interface MonitorBatchStore {
  /** Batches of the suite that are still in progress, oldest first. */
  inProgress(suite: string): MonitorBatch[];
  /** Records a submitted batch with the keys of its requests. */
  addBatch(batch: { suite: string; batch_id: string; provider: string; model: string; submitted_at: string }, requestKeys: readonly string[]): void;
  /** Stores a finished batch's answers and marks it collected (one transaction). */
  collect(batchId: string, collectedAt: string, answers: ReadonlyArray<{ request_key: string; body: string | null; error: string | null }>): void;
  /** Marks a batch failed: its requests are no longer waited for and may be sent again. */
  fail(batchId: string, at: string): void;
  /** The newest answer to a request among the suite's collected batches, if any (a request that errored or expired has none: it is sent again). */
  answer(suite: string, requestKey: string): BatchAnswerRow | undefined;
  /** Whether a request of the suite waits in a batch still in progress. */
  isPending(suite: string, requestKey: string): boolean;
  close(): void;
}

export function openMonitorBatchStore(path: string): MonitorBatchStore {
  return new SqliteMonitorBatchStore(openDatabase(path));
}

class SqliteMonitorBatchStore implements MonitorBatchStore {
  private readonly insertBatch: Database.Statement;
  private readonly insertRequest: Database.Statement;
  private readonly saveAnswer: Database.Statement;
  private readonly markBatch: Database.Statement;
  private readonly selectAnswer: Database.Statement;
  private readonly selectPending: Database.Statement;
  private readonly addTransaction: Database.Transaction<(batch: Parameters<MonitorBatchStore['addBatch']>[0], keys: readonly string[]) => void>;
  private readonly collectTransaction: Database.Transaction<(batchId: string, at: string, answers: Parameters<MonitorBatchStore['collect']>[2]) => void>;

  constructor(private readonly database: Database.Database) {
    this.insertBatch = database.prepare(`
      INSERT INTO monitor_batches (suite, batch_id, provider, model, submitted_at, status, collected_at)
      VALUES (@suite, @batch_id, @provider, @model, @submitted_at, 'in_progress', NULL)`);
    this.insertRequest = database.prepare('INSERT OR IGNORE INTO monitor_batch_requests (batch_id, request_key) VALUES (?, ?)');
    this.saveAnswer = database.prepare('UPDATE monitor_batch_requests SET body = ?, error = ? WHERE batch_id = ? AND request_key = ?');
    this.markBatch = database.prepare('UPDATE monitor_batches SET status = ?, collected_at = ? WHERE batch_id = ?');
    this.selectAnswer = database.prepare(`
      SELECT r.batch_id, b.provider, r.body, r.error FROM monitor_batch_requests r JOIN monitor_batches b ON b.batch_id = r.batch_id
      WHERE b.suite = ? AND r.request_key = ? AND b.status = 'collected' AND r.body IS NOT NULL ORDER BY b.collected_at DESC, b.batch_id DESC LIMIT 1`);
    this.selectPending = database
      .prepare(`
      SELECT 1 FROM monitor_batch_requests r JOIN monitor_batches b ON b.batch_id = r.batch_id
      WHERE b.suite = ? AND r.request_key = ? AND b.status = 'in_progress' LIMIT 1`)
      .pluck();
    this.addTransaction = database.transaction((batch, keys) => {
      this.insertBatch.run(batch);
      for (const key of keys) this.insertRequest.run(batch.batch_id, key);
    });
    this.collectTransaction = database.transaction((batchId, at, answers) => {
      for (const answer of answers) this.saveAnswer.run(answer.body, answer.error, batchId, answer.request_key);
      this.markBatch.run('collected', at, batchId);
    });
  }

  inProgress(suite: string): MonitorBatch[] {
    return this.database
      .prepare(
        `SELECT b.suite, b.batch_id, b.provider, b.model, b.submitted_at, b.status, b.collected_at,
                (SELECT COUNT(*) FROM monitor_batch_requests r WHERE r.batch_id = b.batch_id) AS requests
         FROM monitor_batches b WHERE b.suite = ? AND b.status = 'in_progress' ORDER BY b.submitted_at, b.batch_id`,
      )
      .all(suite) as MonitorBatch[];
  }

  addBatch(batch: Parameters<MonitorBatchStore['addBatch']>[0], requestKeys: readonly string[]): void {
    this.addTransaction(batch, requestKeys);
  }

  collect(batchId: string, collectedAt: string, answers: Parameters<MonitorBatchStore['collect']>[2]): void {
    this.collectTransaction(batchId, collectedAt, answers);
  }

  fail(batchId: string, at: string): void {
    this.markBatch.run('failed', at, batchId);
  }

  answer(suite: string, requestKey: string): BatchAnswerRow | undefined {
    return this.selectAnswer.get(suite, requestKey) as BatchAnswerRow | undefined;
  }

  isPending(suite: string, requestKey: string): boolean {
    return this.selectPending.get(suite, requestKey) !== undefined;
  }

  close(): void {
    this.database.close();
  }
}
