import { chunksOf } from './chunks.js';
import { openSql } from './open-sql.js';
import type { SqlValue, SyncSql } from './sql/sync-sql.js';
import { outboxOn, type OutboxEntry, type OutboxStore } from './outbox-store.js';

/** A production conversation `parley monitor` judged, with its scores. */
export interface MonitoredConversation {
  suite: string;
  conversation_id: string;
  ended_at: string | null;
  judged_at: string;
  tenant: string | null;
  prompt_version: string | null;
  status: 'judged' | 'error';
  cost_usd: number | null;
  scores: MonitorScore[];
  /** What is owed a destination for it (its Langfuse scores): added to the outbox in the same transaction. */
  deliveries?: OutboxEntry[];
}

export interface MonitorScore {
  metric: string;
  metric_version: string;
  score: number | null;
  threshold: number | null;
  passed: boolean;
  error: boolean;
  reason: string;
  judge_model: string;
}

/** A stored score with the time the window comparison files it under. */
export interface TimedMonitorScore extends MonitorScore {
  conversation_id: string;
  prompt_version: string | null;
  /** The conversation's end, else when it was judged. */
  at: string;
}

/**
 * The state of `parley monitor` in the store (`.parley/parley.db`, or the team's PostgreSQL):
 * which production conversations were judged (so a rerun over the same logs judges none twice)
 * and their scores, on a handle of its own.
 */
export interface MonitorStore {
  readonly path: string;
  /** Of these ids, those already judged for the suite (errors are not: they are judged again). */
  judgedAmong(suite: string, conversationIds: readonly string[]): Set<string>;
  /** Saves a judged conversation with its scores, replacing an earlier save (one transaction). */
  save(conversation: MonitoredConversation): void;
  /** Saves several, in one transaction (a commit per conversation costs more than the rest of the state path). */
  saveAll(conversations: readonly MonitoredConversation[]): void;
  /** Scores of a suite with `from <= at < to`, oldest first; every metric, or the named one. */
  scoresBetween(suite: string, from: string, to: string, metric?: string): TimedMonitorScore[];
  /**
   * Claims a conversation for `holder` to judge, committed before the judging starts: `claimed`
   * when nobody holds it (or the holder's lease is past: that process died) and it is not judged;
   * `held` when another process is judging it; `judged` when another process judged it since this
   * one planned. Saving the conversation ends the claim. A claim whose holder `abandoned` says is
   * gone (a process of this machine that died) is taken over before its lease is past.
   */
  claim(suite: string, conversationId: string, holder: string, nowMs: number, leaseMs: number, abandoned?: (holder: string) => boolean): MonitorClaim;
  /** Gives claims back unjudged (interrupted, waiting for a batch): the next run may judge them. */
  release(suite: string, conversationIds: readonly string[], holder: string): void;
  close(): void;
}

export type MonitorClaim = 'claimed' | 'held' | 'judged';

type ScoreRow = {
  conversation_id: string;
  metric: string;
  metric_version: string;
  score: number | null;
  threshold: number | null;
  passed: number;
  error: number;
  reason: string;
  judge_model: string;
  prompt_version: string | null;
  at: string;
};

/** Ids per lookup, and rows per INSERT (up to 12 values each): well under both databases' limits on bound parameters. */
const IDS_PER_QUERY = 500;
const ROWS_PER_INSERT = 100;

const SCORE_COLUMNS = 'suite, conversation_id, metric, metric_version, score, threshold, passed, error, reason, judge_model, prompt_version, at';

export function openMonitorStore(path: string): MonitorStore {
  return new SqlMonitorStore(path, openSql(path));
}

class SqlMonitorStore implements MonitorStore {
  private readonly outbox: OutboxStore;

  constructor(
    readonly path: string,
    private readonly sql: SyncSql,
  ) {
    this.outbox = outboxOn(sql);
  }

  judgedAmong(suite: string, conversationIds: readonly string[]): Set<string> {
    const judged = new Set<string>();
    for (let start = 0; start < conversationIds.length; start += IDS_PER_QUERY) {
      const chunk = conversationIds.slice(start, start + IDS_PER_QUERY);
      const rows = this.sql.all<{ conversation_id: string }>(
        `SELECT conversation_id FROM monitor_conversations WHERE suite = ? AND status = 'judged' AND conversation_id IN (${chunk.map(() => '?').join(',')})`,
        [suite, ...chunk],
      );
      for (const row of rows) judged.add(row.conversation_id);
    }
    return judged;
  }

  save(conversation: MonitoredConversation): void {
    this.saveAll([conversation]);
  }

  saveAll(conversations: readonly MonitoredConversation[]): void {
    if (conversations.length === 0) return;
    // A later save of the same conversation replaces an earlier one, as separate saves would.
    const latest = new Map<string, MonitoredConversation>();
    for (const conversation of conversations) {
      const key = JSON.stringify([conversation.suite, conversation.conversation_id]);
      latest.delete(key);
      latest.set(key, conversation);
    }
    const saved = [...latest.values()];
    // One transaction, in multi-row statements (on PostgreSQL each statement is a round trip). The
    // conversations are saved with their scores and deliveries or not at all: a kill never leaves a
    // judged conversation whose scores nobody will send.
    this.sql.transaction(() => {
      this.outbox.add(conversations.flatMap((conversation) => conversation.deliveries ?? []));
      for (const chunk of chunksOf(saved, ROWS_PER_INSERT)) {
        this.sql.run(
          `INSERT INTO monitor_conversations (suite, conversation_id, ended_at, judged_at, tenant, prompt_version, status, cost_usd)
           VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
           ON CONFLICT (suite, conversation_id) DO UPDATE SET ended_at = excluded.ended_at, judged_at = excluded.judged_at,
             tenant = excluded.tenant, prompt_version = excluded.prompt_version, status = excluded.status, cost_usd = excluded.cost_usd`,
          chunk.flatMap((row) => [row.suite, row.conversation_id, row.ended_at, row.judged_at, row.tenant, row.prompt_version, row.status, row.cost_usd]),
        );
      }
      for (const [suite, ids] of idsBySuite(saved)) {
        for (const chunk of chunksOf(ids, IDS_PER_QUERY)) {
          const list = chunk.map(() => '?').join(',');
          this.sql.run(`DELETE FROM monitor_scores WHERE suite = ? AND conversation_id IN (${list})`, [suite, ...chunk]);
          // Saved: whoever claimed it is done with it (a run that finds it judged leaves it alone).
          this.sql.run(`DELETE FROM monitor_claims WHERE suite = ? AND conversation_id IN (${list})`, [suite, ...chunk]);
        }
      }
      const scoreRows = saved.flatMap((conversation) => {
        const at = conversation.ended_at ?? conversation.judged_at;
        // One row per metric: a later score of the same metric replaces an earlier one.
        const byMetric = new Map(conversation.scores.map((score) => [score.metric, score]));
        return [...byMetric.values()].map((score): SqlValue[] => [
          conversation.suite,
          conversation.conversation_id,
          score.metric,
          score.metric_version,
          score.score,
          score.threshold,
          score.passed ? 1 : 0,
          score.error ? 1 : 0,
          score.reason,
          score.judge_model,
          conversation.prompt_version,
          at,
        ]);
      });
      for (const chunk of chunksOf(scoreRows, ROWS_PER_INSERT)) {
        this.sql.run(`INSERT INTO monitor_scores (${SCORE_COLUMNS}) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`, chunk.flat());
      }
    });
  }

  scoresBetween(suite: string, from: string, to: string, metric?: string): TimedMonitorScore[] {
    const rows = this.sql.all<ScoreRow>(
      `SELECT conversation_id, metric, metric_version, score, threshold, passed, error, reason, judge_model, prompt_version, at
       FROM monitor_scores WHERE suite = ? AND at >= ? AND at < ?${metric !== undefined ? ' AND metric = ?' : ''} ORDER BY at, conversation_id, metric`,
      [suite, from, to, ...(metric !== undefined ? [metric] : [])],
    );
    return rows.map((row) => ({
      ...row,
      passed: Number(row.passed) === 1,
      error: Number(row.error) === 1,
    }));
  }

  claim(suite: string, conversationId: string, holder: string, nowMs: number, leaseMs: number, abandoned?: (holder: string) => boolean): MonitorClaim {
    // One statement: on PostgreSQL a second claimer waits for the first one's row lock, then sees its lease.
    let taken = this.sql.get(
      `INSERT INTO monitor_claims (suite, conversation_id, holder, lease_until_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (suite, conversation_id) DO UPDATE SET holder = excluded.holder, lease_until_ms = excluded.lease_until_ms
       WHERE monitor_claims.lease_until_ms < ? OR monitor_claims.holder = excluded.holder
       RETURNING holder`,
      [suite, conversationId, holder, nowMs + leaseMs, nowMs],
    );
    if (taken === undefined && abandoned !== undefined) {
      const current = this.sql.get<{ holder: string }>('SELECT holder FROM monitor_claims WHERE suite = ? AND conversation_id = ?', [suite, conversationId]);
      if (current !== undefined && abandoned(current.holder)) {
        // Taken from that holder only: a third process that took it over meanwhile keeps it.
        taken = this.sql.get('UPDATE monitor_claims SET holder = ?, lease_until_ms = ? WHERE suite = ? AND conversation_id = ? AND holder = ? RETURNING holder', [
          holder,
          nowMs + leaseMs,
          suite,
          conversationId,
          current.holder,
        ]);
      }
    }
    if (taken === undefined) return 'held';
    // Claimed after another process saved it (its claim ended with the save): judged already.
    if (this.judgedAmong(suite, [conversationId]).size > 0) {
      this.release(suite, [conversationId], holder);
      return 'judged';
    }
    return 'claimed';
  }

  release(suite: string, conversationIds: readonly string[], holder: string): void {
    for (const chunk of chunksOf(conversationIds, IDS_PER_QUERY)) {
      this.sql.run(`DELETE FROM monitor_claims WHERE suite = ? AND holder = ? AND conversation_id IN (${chunk.map(() => '?').join(',')})`, [suite, holder, ...chunk]);
    }
  }

  close(): void {
    this.sql.close();
  }
}

function idsBySuite(conversations: readonly MonitoredConversation[]): Map<string, string[]> {
  const bySuite = new Map<string, string[]>();
  for (const { suite, conversation_id: id } of conversations) {
    const ids = bySuite.get(suite);
    if (ids === undefined) bySuite.set(suite, [id]);
    else ids.push(id);
  }
  return bySuite;
}
