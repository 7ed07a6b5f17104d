import { openSql } from './open-sql.js';
import type { SqlRow } from './sql/sync-sql.js';

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
  const sql = openSql(path);
  return {
    save: (record) =>
      void sql.run(
        `INSERT INTO judge_agreement (run_id, suite, started_at, pairs, kappa, weighted_kappa)
         VALUES (@run_id, @suite, @started_at, @pairs, @kappa, @weighted_kappa)
         ON CONFLICT (run_id) DO UPDATE SET suite = excluded.suite, started_at = excluded.started_at, pairs = excluded.pairs,
           kappa = excluded.kappa, weighted_kappa = excluded.weighted_kappa`,
        { run_id: record.run_id, suite: record.suite, started_at: record.started_at, pairs: record.pairs, kappa: record.kappa, weighted_kappa: record.weighted_kappa },
      ),
    previous: (suite, before, limit = 5) =>
      sql.all<JudgeAgreementRecord & SqlRow>(
        `SELECT run_id, suite, started_at, pairs, kappa, weighted_kappa FROM judge_agreement
         WHERE suite = ? AND started_at < ? AND kappa IS NOT NULL ORDER BY started_at DESC, run_id DESC LIMIT ?`,
        [suite, before, limit],
      ),
    close: () => sql.close(),
  };
}
