import type Database from 'better-sqlite3';
import { openDatabase } from './open-database.js';
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
 * The state of `parley monitor` in `.parley/parley.db`: which production conversations were
 * judged (so a rerun over the same logs judges none twice) and their scores, on a connection of its own.
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
  close(): void;
}

interface ScoreRow {
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
}

/** SQLite limits bound parameters per statement; ids are looked up in chunks of this size. */
const IDS_PER_QUERY = 500;

export function openMonitorStore(path: string): MonitorStore {
  const database = openDatabase(path);
  return new SqliteMonitorStore(path, database);
}

class SqliteMonitorStore implements MonitorStore {
  private readonly insertConversation: Database.Statement;
  private readonly deleteScores: Database.Statement;
  private readonly insertScore: Database.Statement;
  private readonly saveTransaction: Database.Transaction<(conversation: MonitoredConversation) => void>;
  private readonly saveAllTransaction: Database.Transaction<(conversations: readonly MonitoredConversation[]) => void>;
  private readonly outbox: OutboxStore;

  constructor(
    readonly path: string,
    private readonly database: Database.Database,
  ) {
    this.insertConversation = database.prepare(`
      INSERT OR REPLACE INTO monitor_conversations (suite, conversation_id, ended_at, judged_at, tenant, prompt_version, status, cost_usd)
      VALUES (@suite, @conversation_id, @ended_at, @judged_at, @tenant, @prompt_version, @status, @cost_usd)`);
    this.deleteScores = database.prepare('DELETE FROM monitor_scores WHERE suite = ? AND conversation_id = ?');
    this.insertScore = database.prepare(`
      INSERT INTO monitor_scores (suite, conversation_id, metric, metric_version, score, threshold, passed, error, reason, judge_model, prompt_version, at)
      VALUES (@suite, @conversation_id, @metric, @metric_version, @score, @threshold, @passed, @error, @reason, @judge_model, @prompt_version, @at)
      ON CONFLICT (suite, conversation_id, metric) DO UPDATE SET metric_version = excluded.metric_version, score = excluded.score,
        threshold = excluded.threshold, passed = excluded.passed, error = excluded.error, reason = excluded.reason,
        judge_model = excluded.judge_model, prompt_version = excluded.prompt_version, at = excluded.at`);
    this.outbox = outboxOn(database);
    this.saveTransaction = database.transaction((conversation: MonitoredConversation) => {
      const { scores, deliveries, ...row } = conversation;
      this.insertConversation.run(row);
      // Saved with the scores or not at all: a kill never leaves a judged conversation whose scores nobody will send.
      if (deliveries) this.outbox.add(deliveries);
      this.deleteScores.run(conversation.suite, conversation.conversation_id);
      const at = conversation.ended_at ?? conversation.judged_at;
      for (const score of scores) {
        this.insertScore.run({
          ...score,
          passed: score.passed ? 1 : 0,
          error: score.error ? 1 : 0,
          suite: conversation.suite,
          conversation_id: conversation.conversation_id,
          prompt_version: conversation.prompt_version,
          at,
        });
      }
    });
    // A transaction inside a transaction is a savepoint: each conversation still saves whole.
    this.saveAllTransaction = database.transaction((conversations: readonly MonitoredConversation[]) => {
      for (const conversation of conversations) this.saveTransaction(conversation);
    });
  }

  judgedAmong(suite: string, conversationIds: readonly string[]): Set<string> {
    const judged = new Set<string>();
    for (let start = 0; start < conversationIds.length; start += IDS_PER_QUERY) {
      const chunk = conversationIds.slice(start, start + IDS_PER_QUERY);
      const rows = this.database
        .prepare(`SELECT conversation_id FROM monitor_conversations WHERE suite = ? AND status = 'judged' AND conversation_id IN (${chunk.map(() => '?').join(',')})`)
        .pluck()
        .all(suite, ...chunk) as string[];
      for (const id of rows) judged.add(id);
    }
    return judged;
  }

  save(conversation: MonitoredConversation): void {
    this.saveTransaction(conversation);
  }

  saveAll(conversations: readonly MonitoredConversation[]): void {
    if (conversations.length > 0) this.saveAllTransaction(conversations);
  }

  scoresBetween(suite: string, from: string, to: string, metric?: string): TimedMonitorScore[] {
    const rows = this.database
      .prepare(
        `SELECT conversation_id, metric, metric_version, score, threshold, passed, error, reason, judge_model, prompt_version, at
         FROM monitor_scores WHERE suite = ? AND at >= ? AND at < ?${metric !== undefined ? ' AND metric = ?' : ''} ORDER BY at, conversation_id, metric`,
      )
      .all(suite, from, to, ...(metric !== undefined ? [metric] : [])) as ScoreRow[];
    return rows.map((row) => ({ ...row, passed: row.passed === 1, error: row.error === 1 }));
  }

  close(): void {
    this.database.close();
  }
}
