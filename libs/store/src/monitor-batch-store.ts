import { chunksOf } from './chunks.js';
import { openSql } from './open-sql.js';
import type { SqlRow, SyncSql } from './sql/sync-sql.js';

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
 * The batches of `parley monitor --batch` in the store (`.parley/parley.db` or the team's PostgreSQL): what was submitted (so a second
 * run collects instead of resubmitting) and, once collected, each request's answer, found again by
 * the request key of the judge request that asked it.
 */
export interface MonitorBatchStore {
  /** Batches of the suite that are still in progress, oldest first. */
  inProgress(suite: string): MonitorBatch[];
  /** Records a submitted batch with the keys of its requests. */
  addBatch(
    batch: {
      suite: string;
      batch_id: string;
      provider: string;
      model: string;
      submitted_at: string;
    },
    requestKeys: readonly string[],
  ): void;
  /** Stores a finished batch's answers and marks it collected (one transaction). */
  collect(
    batchId: string,
    collectedAt: string,
    answers: ReadonlyArray<{
      request_key: string;
      body: string | null;
      error: string | null;
    }>,
  ): void;
  /** Marks a batch failed: its requests are no longer waited for and may be sent again. */
  fail(batchId: string, at: string): void;
  /** The newest answer to a request among the suite's collected batches, if any (a request that errored or expired has none: it is sent again). */
  answer(suite: string, requestKey: string): BatchAnswerRow | undefined;
  /** Whether a request of the suite waits in a batch still in progress. */
  isPending(suite: string, requestKey: string): boolean;
  close(): void;
}

export function openMonitorBatchStore(path: string): MonitorBatchStore {
  return new SqlMonitorBatchStore(openSql(path));
}

/** Request keys per INSERT or UPDATE: well under both databases' limits on bound parameters. */
const KEYS_PER_STATEMENT = 500;
const ANSWERS_PER_INSERT = 100;

class SqlMonitorBatchStore implements MonitorBatchStore {
  constructor(private readonly sql: SyncSql) {}

  inProgress(suite: string): MonitorBatch[] {
    const rows = this.sql.all<MonitorBatch & SqlRow>(
      `SELECT b.suite, b.batch_id, b.provider, b.model, b.submitted_at, b.status, b.collected_at,
              (SELECT COUNT(*) FROM monitor_batch_requests r WHERE r.batch_id = b.batch_id) AS requests
       FROM monitor_batches b WHERE b.suite = ? AND b.status = 'in_progress' ORDER BY b.submitted_at, b.batch_id`,
      [suite],
    );
    // COUNT(*) is a BIGINT on PostgreSQL, which its driver may hand over as text.
    return rows.map((row) => ({ ...row, requests: Number(row.requests) }));
  }

  addBatch(batch: Parameters<MonitorBatchStore['addBatch']>[0], requestKeys: readonly string[]): void {
    this.sql.transaction(() => {
      this.sql.run(
        `INSERT INTO monitor_batches (suite, batch_id, provider, model, submitted_at, status, collected_at)
         VALUES (?, ?, ?, ?, ?, 'in_progress', NULL)`,
        [batch.suite, batch.batch_id, batch.provider, batch.model, batch.submitted_at],
      );
      for (const chunk of chunksOf([...new Set(requestKeys)], KEYS_PER_STATEMENT)) {
        this.sql.run(
          `INSERT INTO monitor_batch_requests (batch_id, request_key) VALUES ${chunk.map(() => '(?, ?)').join(', ')} ON CONFLICT DO NOTHING`,
          chunk.flatMap((key) => [batch.batch_id, key]),
        );
      }
    });
  }

  collect(batchId: string, collectedAt: string, answers: Parameters<MonitorBatchStore['collect']>[2]): void {
    this.sql.transaction(() => {
      // Answers to the batch's own requests only, the last one per request; written as multi-row upserts of rows that exist.
      const asked = new Set(this.sql.all<{ request_key: string }>('SELECT request_key FROM monitor_batch_requests WHERE batch_id = ?', [batchId]).map((row) => row.request_key));
      const latest = new Map(answers.filter((answer) => asked.has(answer.request_key)).map((answer) => [answer.request_key, answer]));
      for (const chunk of chunksOf([...latest.values()], ANSWERS_PER_INSERT)) {
        this.sql.run(
          `INSERT INTO monitor_batch_requests (batch_id, request_key, body, error) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}
           ON CONFLICT (batch_id, request_key) DO UPDATE SET body = excluded.body, error = excluded.error`,
          chunk.flatMap((answer) => [batchId, answer.request_key, answer.body, answer.error]),
        );
      }
      this.sql.run('UPDATE monitor_batches SET status = ?, collected_at = ? WHERE batch_id = ?', ['collected', collectedAt, batchId]);
    });
  }

  fail(batchId: string, at: string): void {
    this.sql.run('UPDATE monitor_batches SET status = ?, collected_at = ? WHERE batch_id = ?', ['failed', at, batchId]);
  }

  answer(suite: string, requestKey: string): BatchAnswerRow | undefined {
    return this.sql.get<BatchAnswerRow & SqlRow>(
      `SELECT r.batch_id, b.provider, r.body, r.error FROM monitor_batch_requests r JOIN monitor_batches b ON b.batch_id = r.batch_id
       WHERE b.suite = ? AND r.request_key = ? AND b.status = 'collected' AND r.body IS NOT NULL ORDER BY b.collected_at DESC, b.batch_id DESC LIMIT 1`,
      [suite, requestKey],
    );
  }

  isPending(suite: string, requestKey: string): boolean {
    const row = this.sql.get(
      `SELECT 1 AS pending FROM monitor_batch_requests r JOIN monitor_batches b ON b.batch_id = r.batch_id
       WHERE b.suite = ? AND r.request_key = ? AND b.status = 'in_progress' LIMIT 1`,
      [suite, requestKey],
    );
    return row !== undefined;
  }

  close(): void {
    this.sql.close();
  }
}
