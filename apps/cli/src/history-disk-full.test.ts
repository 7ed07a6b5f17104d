import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeLlm } from '@parley/fake-llm';
import { copyExample } from './test-support/example-copy.js';
import { MONITORED_SUITE, writeMonitorLog } from './test-support/monitored-suite.js';
import { parleyAsync } from './test-support/parley-process.js';
import { writeSuite } from './test-support/zuri-suite.js';
import { parleyIn, writeSuite as writeFiles } from './test-support/gate-suite.js';
import { seedHistory } from './test-support/seeded-history.js';
import { damagedFiles, fillDisk, historyOnSmallDisk as smallHistoryDisk, snapshotFiles } from './test-support/small-disk.js';

/**
 * The run history (`.parley/parley.db`) on a full disk: a run says "disk full", changes nothing
 * (the database byte for byte, no "unfinished" run in the history) and leaves no empty run folder,
 * exit 2. It used to say "cannot open as a Parley database: disk I/O error" (as if the file were
 * damaged) or "internal error: SQLITE_FULL", leaving a folder and an unfinished run behind.
 */

const disks: Array<{ unmount(): void }> = [];
afterAll(() => {
  for (const disk of disks.splice(0)) disk.unmount();
});

/** The history (and the default report folders) of `suite` on a small disk of its own: returns `suite/.parley`. */
function historyOnSmallDisk(suite: string, sizeKiB?: number): string {
  const disk = smallHistoryDisk(suite, sizeKiB);
  disks.push(disk);
  return disk.dir;
}

describe('a full disk under the run history', () => {
  it('refuses the run with "disk full", exit 2: the history unchanged, no run folder, no unfinished run', async () => {
    const suite = copyExample('booking');
    const parleyDir = historyOnSmallDisk(suite);

    const first = await parleyIn(suite, ['run', '.', '--mode', 'replay']);
    expect(first.code, first.stderr).toBe(0);
    const before = snapshotFiles(parleyDir);
    const listed = await parleyIn(suite, ['runs', 'list', '--format', 'json']);

    fillDisk(parleyDir, 0);
    const elsewhere = mkdtempSync(join(tmpdir(), 'parley-out-'));
    for (const args of [['run', '.', '--mode', 'replay'], ['run', '.', '--mode', 'replay', '--out', join(elsewhere, 'reports')]]) {
      const full = await parleyIn(suite, args);
      expect(full.code, full.stderr).toBe(2);
      const errors = full.stderr.split('\n').filter((line) => line.startsWith('error: '));
      expect(errors, full.stderr).toHaveLength(1);
      expect(errors[0]).toMatch(/disk full: nothing was changed/);
      expect(full.stderr).not.toMatch(/internal error|disk I\/O error|SQLITE_/);
    }
    expect(existsSync(join(elsewhere, 'reports')), 'no empty run folder left').toBe(false);
    fillDisk(parleyDir, 1024 * 1024);
    // Nothing changed: the database and the first run's reports byte for byte, the same history.
    expect(damagedFiles(before, parleyDir, (_path, old, now) => old.equals(now))).toEqual([]);
    // No new file but SQLite's own, empty, write-ahead log and its index (nothing was written through them).
    const after = snapshotFiles(parleyDir);
    expect([...after.keys()].filter((path) => !before.has(path) && !/^parley\.db-(wal|shm)$/.test(path))).toEqual([]);
    expect(after.get('parley.db-wal')?.length ?? 0).toBe(0);
    expect((await parleyIn(suite, ['runs', 'list', '--format', 'json'])).stdout).toBe(listed.stdout);
  });
});

describe('the commands that only read the run history, on a full disk under it', () => {
  it('answer, or say "disk full" (exit 2, one line): SQLite needs room for its shared-memory index even to read; the history unchanged', async () => {
    const suite = copyExample('booking');
    const parleyDir = historyOnSmallDisk(suite);
    const first = await parleyIn(suite, ['run', '.', '--mode', 'replay']);
    expect(first.code, first.stderr).toBe(0);
    const runId = /run (\d{8}-\d{6}-[0-9a-f]+)/.exec(first.stdout + first.stderr)![1]!;
    const before = snapshotFiles(parleyDir);

    fillDisk(parleyDir, 0);
    const reads = [['runs', 'list'], ['runs', 'show', runId], ['cost'], ['compare', runId, runId], ['cache', 'stats']];
    for (const args of reads) {
      const full = await parleyIn(suite, args);
      if (full.code === 0) continue;
      expect(full.code, `${args.join(' ')}: ${full.stderr}`).toBe(2);
      expect(full.stderr.split('\n').filter((line) => line !== ''), args.join(' ')).toEqual(['error: .parley/parley.db: disk full: nothing was changed']);
    }
    // Report folders given by path need no history: compare answers from them.
    const reports = join('.parley', 'runs', runId);
    const byPath = await parleyIn(suite, ['compare', reports, reports]);
    expect(byPath.code, byPath.stderr).toBe(0);
    fillDisk(parleyDir, 1024 * 1024);
    expect(damagedFiles(before, parleyDir, (_path, old, now) => old.equals(now))).toEqual([]);
  });
});

describe('parley monitor on a full disk under the run history', () => {
  it('says "disk full" and exits 2 before any judge call; the history keeps its data', async () => {
    const llm = await startFakeLlm({ script: { rules: [], fallback: { content: JSON.stringify({ score: 4, reason: 'Clear answer.' }), usage: { input_tokens: 1000, output_tokens: 40 } } } });
    try {
      const suite = writeSuite(MONITORED_SUITE);
      const parleyDir = historyOnSmallDisk(suite);
      const env = { OPENAI_API_KEY: 'sk-test-monitor-full-0123', OPENAI_BASE_URL: llm.openaiBaseUrl };

      writeMonitorLog(suite, 'first', 200);
      const first = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--format', 'json'], { cwd: suite, env });
      expect(first.status, first.stderr).toBe(0);
      const before = snapshotFiles(parleyDir);

      writeMonitorLog(suite, 'second', 200);
      const callsBefore = llm.requests.length;
      fillDisk(parleyDir, 0);
      const full = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--format', 'json'], { cwd: suite, env });
      fillDisk(parleyDir, Number.MAX_SAFE_INTEGER);
      expect(full.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(full.status, full.stderr).toBe(2);
      expect(full.stderr).toMatch(/disk full/);
      expect(damagedFiles(before, parleyDir), 'the history keeps its data').toEqual([]);
      expect(llm.requests.length - callsBefore, 'the history is opened before any judge call: nothing is paid for').toBe(0);
    } finally {
      await llm.close();
    }
  });
});

describe('parley runs prune on a full disk under the run history', () => {
  it('removes the runs whole, or nothing (exit 2 "disk full: nothing was changed"); never an internal error', async () => {
    const { defaultStorePath, openStore } = await import('@parley/store');
    const runsOf = (project: string) => {
      const store = openStore(defaultStorePath(project));
      try {
        return store.listRuns({ suite: 'tiny', limit: 1000 }).map((run) => run.id).sort();
      } finally {
        store.close();
      }
    };
    const outcomes: string[] = [];
    // From none to 512 KiB free in 16 KiB steps, and plenty: the history is about 400 KiB.
    for (const free of [...Array.from({ length: 33 }, (_, step) => step * 16_384), 3_145_728]) {
      const project = writeFiles({ 'parley.yaml': 'suite: tiny\nagents:\n  a: { kind: openai, model: gpt-4.1-mini }\nsettings:\n  history: { keep_runs: 50 }\n' });
      const parleyDir = historyOnSmallDisk(project, 32_768);
      const ids = seedHistory(project, 'tiny', 200).sort();
      const at = `free ${free} bytes`;

      fillDisk(parleyDir, free);
      const pruned = await parleyAsync(['runs', 'prune', '--format', 'json'], { cwd: project });
      fillDisk(parleyDir, Number.MAX_SAFE_INTEGER);
      expect(pruned.stderr, at).not.toMatch(/internal error|SQLITE_|\n\s+at /);
      if (pruned.status === 2) {
        // The removal is one transaction: rolled back whole.
        expect(pruned.stderr, at).toBe('error: .parley/parley.db: disk full: nothing was changed\n');
        expect(runsOf(project), `${at}: nothing removed`).toEqual(ids);
        outcomes.push('refused');
      } else {
        expect(pruned.status, pruned.stderr).toBe(0);
        expect(runsOf(project), `${at}: the 150 oldest runs are gone`).toEqual(ids.slice(150));
        // Three quarters of the runs go, so well over a quarter of the file's pages are free whatever
        // the schema's fixed pages (each table and index has its own) add up to.
        // Here the compaction needs less room than the removal before it, so it never fails after one
        // (its failure, and the next prune compacting, is held by libs/store's prune-history test).
        const { database } = JSON.parse(pruned.stdout) as { database: { compacted: boolean; bytes_before: number; bytes_after: number } };
        expect(database.compacted, at).toBe(true);
        expect(database.bytes_after).toBeLessThan(database.bytes_before);
        outcomes.push('pruned');
      }
    }
    expect(outcomes[0]).toBe('refused');
    expect(outcomes.at(-1)).toBe('pruned');
    // One switch from refusing to pruning as the room grows.
    expect(outcomes.join(' ')).toMatch(/^(refused )+(pruned ?)+$/);
  }, 300_000);
});
