import { dirname, join, resolve } from 'node:path';
import { databaseDiskFull } from '../database-disk-full.js';
import type { Store } from '../store.js';
import type { HistoryRetention, PrunedRun, ProtectedRun } from './prune-runs.js';
import { checkReportFolder, type FolderLeftReason, removeReportFolder } from './report-folders.js';

/** A prune compacts the database when at least this share of its pages is free afterwards. */
export const compactWhenFreeShare = 0.25;

export interface PruneHistoryOptions {
  suite: string;
  retention: HistoryRetention;
  now: Date;
  /** Runs kept whatever their age (the run that just finished). */
  keep?: readonly string[];
  /** Say what would go, change nothing. */
  dryRun?: boolean;
  /**
   * Remove at most this many runs (the oldest first); the rest go next time. The prune after each
   * `parley run` is bounded so that a long backlog does not hold up the run that found it.
   */
  maxRuns?: number;
  /** Told each run as its rows are deleted, inside the prune's one transaction. */
  onRemoved?: (runId: string, index: number) => void;
}

export interface PruneHistoryOutcome {
  suite: string;
  dry_run: boolean;
  /** Runs of the suite before the prune. */
  total: number;
  runs: PrunedRun[];
  /** Runs outside the limits kept because a baseline came from them or they have no end. */
  protected: ProtectedRun[];
  /** Removed runs beyond `maxRuns`, left for the next prune. */
  deferred: number;
  results: number;
  row_bytes: number;
  /** Report folders removed (`removed`), and `bytes` of those and of the runs' `.parley/rerecordings/<run_id>/`. */
  folders: { removed: number; bytes: number; left: Array<{ path: string; reason: FolderLeftReason }> };
  /** The database file (with its write-ahead log) before and after, and whether it was compacted. */
  database: { bytes_before: number; bytes_after: number; compacted: boolean; compact_error?: string };
}

/**
 * Applies a suite's retention (`settings.history`) to the history: decides which runs go, deletes
 * their rows in one transaction, then their report folders (those Parley made under `.parley/`;
 * see checkReportFolder), then compacts the file when the prune left much of it free.
 *
 * Folders go after the rows are committed: a prune killed between the two leaves folders without
 * runs (plain files a user may delete), never runs whose rows are half gone.
 */
export function pruneHistory(store: Store, options: PruneHistoryOptions): PruneHistoryOutcome {
  const bytesBefore = store.databaseBytes();
  const plan = store.planPrune({ suite: options.suite, retention: options.retention, now: options.now, ...(options.keep ? { keep: options.keep } : {}) }, { measure: options.maxRuns === undefined });
  // The plan lists the newest first; a bounded prune takes the oldest.
  const all = [...plan.remove].reverse();
  const runs = options.maxRuns === undefined ? all : all.slice(0, options.maxRuns);
  const folders: PruneHistoryOutcome['folders'] = { removed: 0, bytes: 0, left: [] };
  const removable: string[] = [];
  for (const run of runs) {
    const check = checkReportFolder(run.out_dir, store.path);
    if (check.kind === 'removable') {
      removable.push(check.path);
      folders.removed += 1;
      folders.bytes += check.bytes;
    } else if (check.kind === 'left') folders.left.push({ path: check.path, reason: check.reason });
    // The run's re-recordings (live and record runs, for triage): an accepted one was copied into
    // the suite's recordings, so the run's own copy goes with the run.
    const rerecordings = checkReportFolder(join(dirname(resolve(store.path)), 'rerecordings', run.id), store.path);
    if (rerecordings.kind === 'removable') {
      removable.push(rerecordings.path);
      folders.bytes += rerecordings.bytes;
    }
  }
  const outcome: PruneHistoryOutcome = {
    suite: plan.suite,
    dry_run: options.dryRun === true,
    total: plan.total,
    runs,
    protected: plan.protected,
    deferred: all.length - runs.length,
    results: runs.reduce((sum, run) => sum + run.results, 0),
    row_bytes: runs.reduce((sum, run) => sum + run.row_bytes, 0),
    folders,
    database: { bytes_before: bytesBefore, bytes_after: bytesBefore, compacted: false },
  };
  if (options.dryRun === true) return outcome;

  if (runs.length > 0) {
    try {
      store.removeRuns(
        runs.map((run) => run.id),
        options.onRemoved,
      );
    } catch (error) {
      // One transaction: on a full disk it is rolled back whole ("disk full: nothing was changed", exit 2).
      throw databaseDiskFull(error, store.path) ?? error;
    }
    for (const path of removable) removeReportFolder(path);
  }
  // Also when nothing is removed: a file an earlier prune could not compact is compacted now.
  const pages = store.databasePages();
  if (pages.total > 0 && pages.free / pages.total >= compactWhenFreeShare) {
    try {
      store.compact();
      outcome.database.compacted = true;
    } catch (error) {
      // The prune itself is committed; a file that could not be rewritten (another process
      // reading it, no room for the copy) stays as large as it was and is compacted next time.
      const full = databaseDiskFull(error, store.path) !== undefined;
      outcome.database.compact_error = full ? 'disk full: compacting needs room for a copy of what is kept' : error instanceof Error ? error.message : String(error);
      // What the failed rewrite put in the write-ahead log is given back to the disk.
      try {
        store.checkpoint();
      } catch {
        // another process holds the log: it is emptied at a later checkpoint
      }
    }
  }
  outcome.database.bytes_after = store.databaseBytes();
  return outcome;
}
