import { isAbsolute, resolve } from 'node:path';
import type { SqlRow, SyncSql } from '../sql/sync-sql.js';

/**
 * How much of a suite's run history to keep (`settings.history` in parley.yaml, docs/file-formats.md).
 * A run outside either limit is removed unless something still needs it (see {@link PrunePlan}).
 */
export interface HistoryRetention {
  /** Keep the newest N runs of the suite. */
  keep_runs?: number;
  /** Keep the runs that started within the last D days. */
  keep_days?: number;
}

/** What a suite keeps when parley.yaml says nothing: its last 200 runs. */
export const defaultHistoryRetention: Readonly<HistoryRetention> = Object.freeze({ keep_runs: 200 });

const dayMs = 86_400_000;

export interface PruneSelection {
  suite: string;
  retention: HistoryRetention;
  /** The time `keep_days` counts back from. */
  now: Date;
  /** Runs kept whatever their age: the run just finished (a resumed run keeps its old start). */
  keep?: readonly string[];
}

/** A run the retention removes. */
export interface PrunedRun {
  id: string;
  started_at: string;
  out_dir: string;
  /** Its stored results, repetitions included. */
  results: number;
  /** About how many bytes its rows hold (transcripts, sessions, reasons, scores). */
  row_bytes: number;
}

/** A run outside the limits that is kept anyway, and why. */
export interface ProtectedRun {
  id: string;
  /**
   * `baseline`: the newest run that wrote this baseline file; `unfinished`: still running, or
   * stopped without an end; `export_pending`: its export (Langfuse, OTLP) waits in the outbox.
   */
  reason: 'baseline' | 'unfinished' | 'export_pending';
  /**
   * The baseline file the run wrote (`--export-baseline`): resolved against the folder the run
   * started in, or as the run was given it when the run is older than the stored `cwd`.
   */
  baseline?: string;
}

export interface PrunePlan {
  suite: string;
  /** Runs of the suite in the history before the prune. */
  total: number;
  remove: PrunedRun[];
  protected: ProtectedRun[];
}

type RankedRun = {
  id: string;
  started_at: string;
  out_dir: string;
  status: string | null;
  options_json: string;
  rank: number;
} & SqlRow;

/**
 * Which runs of a suite a retention removes, and the removal itself (one transaction). The judge
 * verdict cache, calibration sessions, flaky marks and monitor state are other tables with no
 * link to a run that removes them: a prune never touches them. A run's scenario results, metric
 * scores, judge agreement and model spend go with it (foreign keys `ON DELETE CASCADE`).
 */
export function runPruning(sql: SyncSql) {
  const ranked = (suite: string): RankedRun[] =>
    sql.all<RankedRun>(
      `SELECT id, started_at, out_dir, status, options_json,
         ROW_NUMBER() OVER (ORDER BY started_at DESC, id DESC) AS rank
       FROM runs WHERE suite = ? ORDER BY started_at DESC, id DESC`,
      [suite],
    );
  // Bytes, not characters (octet_length: SQLite 3.43 and PostgreSQL both have it).
  const rowsOfRun = (runId: string) =>
    sql.get<{ results: number; row_bytes: number | null }>(
      `SELECT count(*) AS results,
         CAST(sum(coalesce(octet_length(transcript_json), 0) + coalesce(octet_length(session_json), 0) + octet_length(reason)
           + coalesce(octet_length(error_json), 0) + octet_length(tags_json)) AS BIGINT) AS row_bytes
       FROM scenario_results WHERE run_id = ?`,
      [runId],
    );
  // Walks the run's results and looks up each one's scores by the metric index (as the store reads them).
  const metricBytesOfRun = (runId: string) =>
    sql.get<{ bytes: number | null }>(
      `SELECT CAST(sum(octet_length(m.reason) + coalesce(octet_length(m.details_json), 0) + octet_length(m.metric) + octet_length(m.version)) AS BIGINT) AS bytes
       FROM scenario_results AS s
       JOIN metric_scores AS m ON m.scenario_id = s.scenario_id AND m.run_id = s.run_id AND m.attempt = s.attempt
       WHERE s.run_id = ?`,
      [runId],
    );
  // A run whose export has not been delivered yet is still owed to a service: the outbox sends it
  // on the next run, from the run's rows.
  const pendingExports = () =>
    sql.all<{ item_key: string }>(`SELECT DISTINCT item_key FROM outbox WHERE kind = 'run_export' AND delivered_at IS NULL`);

  function plan(selection: PruneSelection, options: { measure?: boolean } = {}): PrunePlan {
    const { keep_runs: keepRuns, keep_days: keepDays } = selection.retention;
    const cutoff = keepDays === undefined ? undefined : new Date(selection.now.getTime() - keepDays * dayMs).toISOString();
    const runs = ranked(selection.suite);
    const baselineRuns = newestBaselineWriters(runs);
    const exportsPending = new Set(pendingExports().map((row) => row.item_key));
    const remove: PrunedRun[] = [];
    const kept: ProtectedRun[] = [];
    for (const run of runs) {
      const tooMany = keepRuns !== undefined && run.rank > keepRuns;
      const tooOld = cutoff !== undefined && run.started_at < cutoff;
      if ((!tooMany && !tooOld) || selection.keep?.includes(run.id)) continue;
      if (run.status === null) {
        kept.push({ id: run.id, reason: 'unfinished' });
        continue;
      }
      if (exportsPending.has(run.id)) {
        kept.push({ id: run.id, reason: 'export_pending' });
        continue;
      }
      const baseline = baselineRuns.get(run.id);
      if (baseline !== undefined) {
        kept.push({ id: run.id, reason: 'baseline', baseline });
        continue;
      }
      remove.push({ id: run.id, started_at: run.started_at, out_dir: run.out_dir, ...(options.measure === false ? { results: 0, row_bytes: 0 } : measureRun(run.id)) });
    }
    return { suite: selection.suite, total: runs.length, remove, protected: kept };
  }

  function measureRun(runId: string): { results: number; row_bytes: number } {
    const rows = rowsOfRun(runId);
    const bytes = (rows?.row_bytes ?? 0) + (metricBytesOfRun(runId)?.bytes ?? 0);
    return { results: rows?.results ?? 0, row_bytes: bytes };
  }

  /**
   * Deletes the runs with every row that belongs to them, all in one transaction: a prune that is
   * stopped half-way (even by SIGKILL) leaves the history as it was. `onRemoved` is told each run
   * as its rows go (inside the transaction).
   */
  function remove(runIds: readonly string[], onRemoved?: (runId: string, index: number) => void): number {
    return sql.transaction(() => {
      let removed = 0;
      runIds.forEach((runId, index) => {
        removed += sql.run(`DELETE FROM runs WHERE id = ?`, [runId]).changes;
        onRemoved?.(runId, index);
      });
      return removed;
    });
  }

  return { plan, remove };
}

/**
 * The runs a baseline file came from: for each file a finished run of the suite wrote
 * (`--export-baseline FILE`, stored in the run's options), the newest such run. An interrupted run
 * writes no baseline and does not count. A file is told apart by its path resolved against the
 * folder its run started in (the stored `cwd`), so `baseline.json` typed in two folders is two
 * files, and one file typed two ways is one; a run older than the stored `cwd` goes by the path as typed.
 */
function newestBaselineWriters(runs: readonly RankedRun[]): Map<string, string> {
  const writers = new Map<string, string>();
  const files = new Set<string>();
  for (const run of runs) {
    if (run.status === null || run.status === 'interrupted' || !run.options_json.includes('"export_baseline"')) continue;
    const exported = exportedBaseline(run.options_json);
    if (exported === undefined || files.has(exported.key)) continue;
    files.add(exported.key);
    writers.set(run.id, exported.key);
  }
  return writers;
}

/** The baseline a run wrote, resolved against the folder it started in when the run stored that folder (`key`). */
function exportedBaseline(optionsJson: string): { key: string } | undefined {
  const options: unknown = JSON.parse(optionsJson);
  if (typeof options !== 'object' || options === null) return undefined;
  const { export_baseline: file, cwd } = options as { export_baseline?: unknown; cwd?: unknown };
  if (typeof file !== 'string') return undefined;
  const key = typeof cwd === 'string' && cwd !== '' && !isAbsolute(file) ? resolve(cwd, file) : file;
  return { key };
}
