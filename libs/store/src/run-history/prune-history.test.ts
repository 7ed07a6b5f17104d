import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSql } from '../open-sql.js';
import type { SqlValue } from '../sql/sync-sql.js';
import { openStore, type Store } from '../store.js';
import { storeDrivers, useStoreDriver } from '../test-support/each-driver.js';
import { errorResult, newRun, passingResult, runFinish } from '../test-support/fixtures.js';
import { pruneHistory } from './prune-history.js';
import { defaultHistoryRetention } from './prune-runs.js';

const SUITE = 'ratiba_booking';
const PRUNE_MIDWAY = fileURLToPath(new URL('../test-support/prune-midway.mjs', import.meta.url));
const dayMs = 86_400_000;
const start = Date.parse('2026-01-01T09:00:00.000Z');

let folder: { path: string };
let storePath: string;
let store: Store;

/** Runs statements on the store's database beside the store (another handle, as another process would). */
function onDatabase(work: (run: (sql: string, params?: SqlValue[]) => void, get: (sql: string) => unknown) => void): void {
  const sql = openSql(storePath);
  try {
    work(
      (text, params) => {
        sql.run(text, params);
      },
      (text) => sql.get(text),
    );
  } finally {
    sql.close();
  }
}

/** The id of the run made on day `index` (one run a day from 2026-01-01). */
function runId(index: number): string {
  return `run-${String(index).padStart(5, '0')}`;
}

/**
 * Writes `count` finished runs of the suite through the store's own API, one a day, each with two
 * results and a report folder under .parley/runs; `options` adds flags to some of them.
 */
function addRuns(count: number, options: (index: number) => Record<string, unknown> = () => ({}), first = 0): void {
  for (let index = first; index < first + count; index += 1) {
    const id = runId(index);
    const outDir = join(folder.path, '.parley', 'runs', id);
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'report.json'), `{"run_id":"${id}"}\n`);
    store.createRun(newRun({ id, suite: SUITE, started_at: new Date(start + index * dayMs).toISOString(), options: { mode: 'replay', ...options(index) }, out_dir: outDir }));
    store.saveScenarioResults(id, [passingResult(), errorResult()]);
    store.finishRun(id, runFinish());
  }
}

function runIds(): string[] {
  return store.listRuns({ suite: SUITE }).map((run) => run.id);
}

/** Every row of the history, for a PostgreSQL store (which has no file to hash). */
function rowsHash(): string {
  const hash = createHash('sha256');
  const sql = openSql(storePath);
  try {
    for (const [table, key] of [['runs', 'id'], ['scenario_results', 'run_id, scenario_id, attempt'], ['metric_scores', 'run_id, scenario_id, attempt, position']]) {
      hash.update(JSON.stringify(sql.all(`SELECT * FROM ${table} ORDER BY ${key}`)));
    }
  } finally {
    sql.close();
  }
  return hash.digest('hex');
}

function fileHash(path: string): string {
  const hash = createHash('sha256');
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) hash.update(readFileSync(file));
  return hash.digest('hex');
}

describe.each(storeDrivers)('pruneHistory on %s', (driver) => {
  const database = useStoreDriver(driver);
  beforeEach(() => {
    folder = { path: database.folder };
    storePath = database.path;
    store = openStore(storePath);
  });
  afterEach(() => store.close());

  it('keeps the newest 200 runs by default: 205 runs lose the 5 oldest, with their rows and report folders', () => {
    addRuns(205);
    const outcome = pruneHistory(store, { suite: SUITE, retention: defaultHistoryRetention, now: new Date(start + 205 * dayMs) });

    expect(outcome.runs.map((run) => run.id)).toEqual([0, 1, 2, 3, 4].map(runId));
    expect(outcome).toMatchObject({ total: 205, results: 10, folders: { removed: 5, left: [] }, deferred: 0 });
    expect(outcome.folders.bytes).toBeGreaterThan(0);
    expect(outcome.row_bytes).toBeGreaterThan(1000);
    expect(runIds()).toHaveLength(200);
    expect(runIds().at(-1)).toBe(runId(5));
    expect(store.getScenarioResults(runId(0))).toEqual([]);
    expect(store.metricHistory('spa_booking_swahili_happy', 'conversation_judge', 1000)).toHaveLength(200);
    expect(existsSync(join(folder.path, '.parley', 'runs', runId(4)))).toBe(false);
    expect(existsSync(join(folder.path, '.parley', 'runs', runId(5)))).toBe(true);
  });

  it("removes a removed run's re-recordings under .parley/rerecordings/<run_id>, and no one else's", () => {
    addRuns(3);
    for (const index of [0, 2]) {
      mkdirSync(join(folder.path, '.parley', 'rerecordings', runId(index)), { recursive: true });
      writeFileSync(join(folder.path, '.parley', 'rerecordings', runId(index), 'greeting.jsonl'), '{}\n');
    }
    pruneHistory(store, { suite: SUITE, retention: { keep_runs: 2 }, now: new Date(start + 3 * dayMs) });
    expect(existsSync(join(folder.path, '.parley', 'rerecordings', runId(0)))).toBe(false);
    expect(existsSync(join(folder.path, '.parley', 'rerecordings', runId(2), 'greeting.jsonl'))).toBe(true);
  });

  it('keep_days counts back from the injected clock; with keep_runs too, a run must be within both', () => {
    addRuns(60);
    const now = new Date(start + 59 * dayMs + 3_600_000); // an hour after the newest run
    const byDays = pruneHistory(store, { suite: SUITE, retention: { keep_days: 30 }, now, dryRun: true });
    // Runs of days 30..59 started within the last 30 days (day 29's is 30 days and an hour old).
    expect(byDays.runs).toHaveLength(30);
    expect(byDays.runs.at(-1)?.id).toBe(runId(29));

    pruneHistory(store, { suite: SUITE, retention: { keep_days: 30, keep_runs: 10 }, now });
    expect(runIds()).toEqual(Array.from({ length: 10 }, (_, index) => runId(59 - index)));
  });

  it('keeps the newest run that wrote each baseline file, and runs without an end', () => {
    addRuns(30, (index) => (index === 2 || index === 4 ? { export_baseline: 'baselines/main.json' } : index === 3 ? { export_baseline: 'baselines/nightly.json' } : {}));
    // A run that was going to write the main baseline but was interrupted wrote none.
    addRuns(1, () => ({ export_baseline: 'baselines/main.json' }), 30);
    store.finishRun(runId(30), runFinish({ status: 'interrupted', exit_code: 130 }));
    // Still running (or killed without an end): its rows are being written.
    store.createRun(newRun({ id: 'run-unfinished', suite: SUITE, started_at: new Date(start - dayMs).toISOString(), out_dir: join(folder.path, '.parley', 'runs', 'run-unfinished') }));

    const outcome = pruneHistory(store, { suite: SUITE, retention: { keep_runs: 1 }, now: new Date(start + 40 * dayMs) });

    expect(outcome.protected).toEqual([
      { id: runId(4), reason: 'baseline', baseline: 'baselines/main.json' },
      { id: runId(3), reason: 'baseline', baseline: 'baselines/nightly.json' },
      { id: 'run-unfinished', reason: 'unfinished' },
    ]);
    expect(runIds().sort()).toEqual([runId(3), runId(30), runId(4), 'run-unfinished'].sort());
    expect(outcome.runs.map((run) => run.id)).toContain(runId(2));
  });

  it('tells baseline files apart by their path resolved against the folder each run started in', () => {
    const root = join(folder.path, 'repo');
    const suiteDir = join(root, 'suite');
    addRuns(6, (index) =>
      index === 0
        ? { export_baseline: 'baseline.json', cwd: root } // repo/baseline.json
        : index === 1
          ? { export_baseline: 'suite/baseline.json', cwd: root } // repo/suite/baseline.json, written again by run 2
          : index === 2
            ? { export_baseline: 'baseline.json', cwd: suiteDir }
            : {},
    );
    const outcome = pruneHistory(store, { suite: SUITE, retention: { keep_runs: 1 }, now: new Date(start + 10 * dayMs) });
    expect(outcome.protected).toEqual([
      { id: runId(2), reason: 'baseline', baseline: join(suiteDir, 'baseline.json') },
      { id: runId(0), reason: 'baseline', baseline: join(root, 'baseline.json') },
    ]);
    expect(outcome.runs.map((run) => run.id)).toContain(runId(1));
  });

  it('keeps a run whose export still waits in the outbox, and removes it once delivered', () => {
    addRuns(4);
    onDatabase((run) => {
      const owe = `INSERT INTO outbox (kind, destination, item_key, suite, payload_json, created_at, delivered_at) VALUES (?, 'langfuse http://127.0.0.1:1', ?, ?, '{}', '2026-01-05T00:00:00Z', ?)`;
      run(owe, ['run_export', runId(0), SUITE, null]);
      run(owe, ['run_export', runId(1), SUITE, '2026-01-05T00:01:00Z']);
      run(owe, ['monitor_score', runId(2), SUITE, null]);
    });
    const outcome = pruneHistory(store, { suite: SUITE, retention: { keep_runs: 1 }, now: new Date(start + 10 * dayMs) });
    expect(outcome.protected).toEqual([{ id: runId(0), reason: 'export_pending' }]);
    expect(runIds()).toEqual([runId(3), runId(0)]);
  });

  it('touches only its own suite, and keeps the judge cache, calibration sessions, flaky marks and monitor state', () => {
    addRuns(5);
    store.createRun(newRun({ id: 'other-suite-run', suite: 'other', started_at: new Date(start).toISOString() }));
    store.finishRun('other-suite-run', runFinish());
    store.markFlaky({ suite: SUITE, scenario_id: 'spa_booking_swahili_happy', run_id: runId(0), marked_at: '2026-01-01T10:00:00Z', note: '' });
    onDatabase((run) => {
      run(`INSERT INTO judge_cache (key, scenario_id, metric, metric_version, judge_model, prompt_version, value_json, created_at)
        VALUES ('k1', 'spa_booking_swahili_happy', 'conversation_judge', '1.2.0', 'gpt-4o', 'p1', '{}', '2026-01-01T00:00:00Z')`);
      run(`INSERT INTO calibration_sessions (id, set_path, started_at, mode, rubric_version, rubric_sha256, raters_json, items, parley_version)
        VALUES ('cal-1', 'calibration', '2026-01-01T00:00:00Z', 'live', '1', 'x', '{}', 0, '0.1.0')`);
      run(`INSERT INTO monitor_conversations (suite, conversation_id, judged_at, status) VALUES ('${SUITE}', 'c1', '2026-01-01T00:00:00Z', 'judged')`);
    });

    pruneHistory(store, { suite: SUITE, retention: { keep_runs: 1 }, now: new Date(start + 10 * dayMs) });

    expect(runIds()).toEqual([runId(4)]);
    expect(store.getRun('other-suite-run')).toBeDefined();
    expect(store.flakyMarks(SUITE)).toHaveLength(1);
    onDatabase((_run, get) => {
      for (const table of ['judge_cache', 'calibration_sessions', 'monitor_conversations']) {
        expect(get(`SELECT count(*) AS n FROM ${table}`), table).toEqual({ n: 1 });
      }
      expect(get(`SELECT count(*) AS n FROM metric_scores WHERE run_id NOT IN (SELECT id FROM runs)`)).toEqual({ n: 0 });
    });
  });

  it('--dry-run says what would go and changes nothing: the database files hash the same (its rows on PostgreSQL), folders stay', () => {
    addRuns(25);
    store.close();
    store = openStore(storePath);
    const before = driver === 'sqlite' ? fileHash(storePath) : rowsHash();
    const outcome = pruneHistory(store, { suite: SUITE, retention: { keep_runs: 20 }, now: new Date(start + 30 * dayMs), dryRun: true });
    expect(outcome).toMatchObject({ dry_run: true, folders: { removed: 5 }, database: { compacted: false } });
    expect(outcome.runs).toHaveLength(5);
    expect(driver === 'sqlite' ? fileHash(storePath) : rowsHash()).toBe(before);
    expect(runIds()).toHaveLength(25);
    expect(existsSync(join(folder.path, '.parley', 'runs', runId(0), 'report.json'))).toBe(true);
  });

  it('deletes only real folders under .parley/: a symlinked folder, one elsewhere and the links inside a folder are left alone', () => {
    const outside = join(folder.path, 'my-reports');
    mkdirSync(join(outside, 'kept-run'), { recursive: true });
    writeFileSync(join(outside, 'precious.txt'), 'not Parley’s\n');
    addRuns(4);
    // run 0: a folder the user chose outside .parley/ (--out my-reports/kept-run)
    // run 1: a link under .parley/runs that leads outside
    // run 2: a real folder holding a link to a file outside (the link goes, the file stays)
    const linked = join(folder.path, '.parley', 'runs', 'linked');
    symlinkSync(outside, linked);
    onDatabase((run) => {
      run(`UPDATE runs SET out_dir = ? WHERE id = ?`, [join(outside, 'kept-run'), runId(0)]);
      run(`UPDATE runs SET out_dir = ? WHERE id = ?`, [linked, runId(1)]);
    });
    symlinkSync(join(outside, 'precious.txt'), join(folder.path, '.parley', 'runs', runId(2), 'link-out'));

    const outcome = pruneHistory(store, { suite: SUITE, retention: { keep_runs: 1 }, now: new Date(start + 10 * dayMs) });

    expect(outcome.folders.left).toEqual([
      { path: join(outside, 'kept-run'), reason: 'outside .parley' },
      { path: linked, reason: 'symbolic link' },
    ]);
    expect(outcome.folders.removed).toBe(1);
    expect(existsSync(join(outside, 'kept-run'))).toBe(true);
    expect(readFileSync(join(outside, 'precious.txt'), 'utf8')).toBe('not Parley’s\n');
    expect(existsSync(join(folder.path, '.parley', 'runs', runId(2)))).toBe(false);
    expect(runIds()).toEqual([runId(3)]);
  });

  // PostgreSQL only: with SQLite the database file is in .parley/, so the folder exists.
  it.runIf(driver === 'postgres')('a team store on a machine with no .parley/ (every run went to --out): the runs go, their folders stay, nothing throws', () => {
    for (const index of [0, 1]) {
      const outDir = join(folder.path, 'my-out', runId(index));
      mkdirSync(outDir, { recursive: true });
      store.createRun(newRun({ id: runId(index), suite: SUITE, started_at: new Date(start + index * dayMs).toISOString(), options: { mode: 'replay' }, out_dir: outDir }));
      store.finishRun(runId(index), runFinish());
    }
    expect(existsSync(join(folder.path, '.parley'))).toBe(false);

    const outcome = pruneHistory(store, { suite: SUITE, retention: { keep_runs: 1 }, now: new Date(start + 10 * dayMs) });

    expect(outcome.folders.left).toEqual([{ path: join(folder.path, 'my-out', runId(0)), reason: 'outside .parley' }]);
    expect(existsSync(join(folder.path, 'my-out', runId(0)))).toBe(true);
    expect(runIds()).toEqual([runId(1)]);
  });

  // SQLite only: PostgreSQL has no file to compact (its autovacuum reuses the room of deleted rows).
  it.runIf(driver === 'sqlite')('compacts the database after a prune that freed much of it: the file shrinks', () => {
    addRuns(205);
    const outcome = pruneHistory(store, { suite: SUITE, retention: { keep_runs: 20 }, now: new Date(start + 205 * dayMs) });
    expect(outcome.database.compacted).toBe(true);
    expect(outcome.database.bytes_after).toBeLessThan(outcome.database.bytes_before / 3);
    expect(store.databasePages().free).toBe(0);
    expect(runIds()).toHaveLength(20);
  });

  // SQLite only: PostgreSQL has no file to compact (its autovacuum reuses the room of deleted rows).
  it.runIf(driver === 'sqlite')('a compaction the full disk refuses leaves the prune committed and says why; the next prune, with nothing to remove, compacts', () => {
    addRuns(205);
    // The VACUUM fails as SQLite fails it on a full disk (the delete before it went through).
    const full = Object.create(store) as Store;
    full.compact = () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    const refused = pruneHistory(full, { suite: SUITE, retention: { keep_runs: 20 }, now: new Date(start + 205 * dayMs) });
    expect(refused.database).toMatchObject({ compacted: false, compact_error: 'disk full: compacting needs room for a copy of what is kept' });
    expect(runIds()).toHaveLength(20);
    expect(store.databasePages().free).toBeGreaterThan(0);

    const next = pruneHistory(store, { suite: SUITE, retention: { keep_runs: 20 }, now: new Date(start + 205 * dayMs) });
    expect(next.runs).toHaveLength(0);
    expect(next.database.compacted).toBe(true);
    expect(next.database.bytes_after).toBeLessThan(refused.database.bytes_after);
    expect(store.databasePages().free).toBe(0);
  });

  // SQLite only: PostgreSQL has no file to compact (its autovacuum reuses the room of deleted rows).
  it.runIf(driver === 'sqlite')('does not compact after a small prune (the space is reused by the next run): the file keeps its size', () => {
    addRuns(205);
    const outcome = pruneHistory(store, { suite: SUITE, retention: defaultHistoryRetention, now: new Date(start + 205 * dayMs) });
    expect(outcome.database.compacted).toBe(false);
    expect(outcome.database.bytes_after).toBeGreaterThanOrEqual(outcome.database.bytes_before);
  });

  it.runIf(driver === 'postgres')('never compacts PostgreSQL: the rows go in one transaction, the database size is reported', () => {
    addRuns(205);
    const outcome = pruneHistory(store, { suite: SUITE, retention: { keep_runs: 20 }, now: new Date(start + 205 * dayMs) });
    expect(outcome.runs).toHaveLength(185);
    expect(outcome.database.compacted).toBe(false);
    expect(outcome.database.bytes_before).toBeGreaterThan(0);
    expect(store.databasePages()).toEqual({ total: 0, free: 0 });
    expect(runIds()).toHaveLength(20);
    onDatabase((_run, get) => {
      expect(get(`SELECT count(*) AS n FROM scenario_results`)).toEqual({ n: 40 });
      expect(get(`SELECT count(*) AS n FROM metric_scores WHERE run_id NOT IN (SELECT id FROM runs)`)).toEqual({ n: 0 });
    });
  });

  it('keeps the runs it is told to keep whatever their age (a resumed run that just finished)', () => {
    addRuns(10);
    pruneHistory(store, { suite: SUITE, retention: { keep_days: 3 }, now: new Date(start + 10 * dayMs), keep: [runId(0)] });
    expect(runIds()).toEqual([runId(9), runId(8), runId(7), runId(0)]);
  });

  it('a bounded prune removes the oldest runs first and leaves the rest for next time', () => {
    addRuns(30);
    const outcome = pruneHistory(store, { suite: SUITE, retention: { keep_runs: 10 }, now: new Date(start + 30 * dayMs), maxRuns: 5 });
    expect(outcome.runs.map((run) => run.id)).toEqual([0, 1, 2, 3, 4].map(runId));
    expect(outcome.deferred).toBe(15);
    expect(runIds()).toHaveLength(25);
  });

  it('a prune killed (SIGKILL) half-way through its transaction leaves the history whole and consistent', async () => {
    addRuns(50);
    store.close();
    const child = spawn(process.execPath, [PRUNE_MIDWAY, storePath, SUITE, '20'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('midway\n')) resolve();
      });
      child.on('close', () => reject(new Error(`the prune ended before it was stopped: ${stdout}${stderr}`)));
    });
    const closed = new Promise((resolve) => child.on('close', (code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await closed).toBe('SIGKILL');

    store = openStore(storePath);
    expect(runIds()).toHaveLength(50);
    expect(store.getScenarioResults(runId(0))).toHaveLength(2);
    onDatabase((_run, get) => {
      if (driver === 'sqlite') {
        expect(get('PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' });
        expect(get('PRAGMA foreign_key_check')).toBeUndefined();
      }
      expect(get(`SELECT count(*) AS n FROM scenario_results WHERE run_id NOT IN (SELECT id FROM runs)`)).toEqual({ n: 0 });
    });
    // Every report folder is still there (they go only after the rows are committed).
    expect(existsSync(join(folder.path, '.parley', 'runs', runId(0)))).toBe(true);
  });
});
