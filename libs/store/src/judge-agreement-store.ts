import type Database from 'better-sqlite3';
import { openDatabase } from './open-database.js';

/** A run's agreement between the primary judge and the cross-check on its sampled verdicts. */
export interface JudgeAgreementRecord {
  run_id: string;
  suite: string;
  started_at: string;
  pairs: number;
  /** Cohen's kappa on pass/fail; null when undefined. */
  kappa: number | null;
  /** Quadratic-weighted kappa on the scores in five bands; null when undefined. */
  weighted_kappa: number | null;
}

/** The judge agreement of runs in `.parley/parley.db`, on its own connection (like the judge cache). */
export interface JudgeAgreementStore {
  /** Stores (or replaces) a run's agreement; the run must exist. */
  save(record: JudgeAgreementRecord): void;
  /** Earlier runs of the suite that measured a kappa, started before `before`, newest first. */
  previous(suite: string, before: string, limit?: number): JudgeAgreementRecord[];
  close(): void;
}

export function openJudgeAgreement(path: string): JudgeAgreementStore {
  const database: Database.Database = openDatabase(path);
  const insert = database.prepare<[JudgeAgreementRecord]>(
    `INSERT OR REPLACE INTO judge_agreement (run_id, suite, started_at, pairs, kappa, weighted_kappa)
     VALUES (@run_id, @suite, @started_at, @pairs, @kappa, @weighted_kappa)`,
  );
  const select = database.prepare<[string, string, number], JudgeAgreementRecord>(
    `SELECT run_id, suite, started_at, pairs, kappa, weighted_kappa FROM judge_agreement
     WHERE suite = ? AND started_at < ? AND kappa IS NOT NULL ORDER BY started_at DESC LIMIT ?`,
  );
  return {
    save: (record) => void insert.run(record),
    previous: (suite, before, limit = 5) => select.all(suite, before, limit),
    close: () => database.close(),
  };
}
