import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { manualClock, seededRandom } from '@parley/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { captureOutput } from '../test-support/capture-output.js';
import { copySuite, recordedGateSuite, writeSuite } from '../test-support/gate-suite.js';
import { dayMs, firstDay, seedHistory } from '../test-support/seeded-history.js';
import { parleyAsync } from '../test-support/parley-process.js';

// Loaded as the commands load it (lazily): the CLI's startup never pulls in SQLite.
const { defaultStorePath, openStore } = await import('@parley/store');

function runIdsOf(project: string, suite: string): string[] {
  const store = openStore(defaultStorePath(project));
  try {
    return store.listRuns({ suite }).map((run) => run.id);
  } finally {
    store.close();
  }
}

function readRun(project: string, id: string) {
  const store = openStore(defaultStorePath(project));
  try {
    const run = store.getRun(id);
    if (run === undefined) throw new Error(`no run ${id}`);
    return run;
  } finally {
    store.close();
  }
}

function hashOfFiles(...files: string[]): string {
  const hash = createHash('sha256');
  for (const file of files) if (existsSync(file)) hash.update(file).update(readFileSync(file));
  return hash.digest('hex');
}

async function parleyAt(cwd: string, argv: string[], now: Date) {
  const output = captureOutput();
  const code = await main(argv, { cwd, env: {}, output, clock: manualClock(now), random: seededRandom(7) });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

describe('parley runs prune', () => {
  it('keeps the last 200 runs by default: 205 runs lose the 5 oldest and their report folders; --dry-run changes nothing', async () => {
    const project = writeSuite({ 'parley.yaml': 'suite: tiny\nagents:\n  a: { kind: openai, model: gpt-4.1-mini }\n' });
    const ids = seedHistory(project, 'tiny', 205);
    const database = defaultStorePath(project);
    const before = hashOfFiles(database, `${database}-wal`);

    const dry = await parleyAt(project, ['runs', 'prune', '--dry-run'], new Date(firstDay + 300 * dayMs));
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(dry.stdout).toContain('suite tiny: would remove 5 runs of 205 (10 scenario results');
    expect(dry.stdout).toContain('and 5 report folders');
    expect(dry.stdout).toContain('nothing was changed (--dry-run)');
    expect(hashOfFiles(database, `${database}-wal`)).toBe(before);
    expect(runIdsOf(project, 'tiny')).toHaveLength(205);

    const pruned = await parleyAt(project, ['runs', 'prune'], new Date(firstDay + 300 * dayMs));
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain('suite tiny: removed 5 runs of 205');
    expect(pruned.stdout).toMatch(/database [\d.]+ \w+ → [\d.]+ \w+/);
    const kept = runIdsOf(project, 'tiny');
    expect(kept).toHaveLength(200);
    expect(kept.at(-1)).toBe(ids[5]);
    expect(existsSync(join(project, '.parley', 'runs', ids[4]!))).toBe(false);
    expect(existsSync(join(project, '.parley', 'runs', ids[5]!))).toBe(true);

    const again = await parleyAt(project, ['runs', 'prune', '--format', 'json'], new Date(firstDay + 300 * dayMs));
    expect(JSON.parse(again.stdout)).toMatchObject({ suite: 'tiny', total: 200, runs: [], dry_run: false });
  });

  it('keep_days counts back from the clock: a run 31 days old goes, one 29 days old stays', async () => {
    const project = writeSuite({ 'parley.yaml': 'suite: tiny\nagents:\n  a: { kind: openai, model: gpt-4.1-mini }\nsettings:\n  history: { keep_days: 30 }\n' });
    const ids = seedHistory(project, 'tiny', 40);
    // The newest seeded run (day 39) started 0 days ago; day 9 is 30 days old plus a minute.
    const now = new Date(firstDay + 39 * dayMs + 60_000);
    const pruned = await parleyAt(project, ['runs', 'prune'], now);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain('removed 10 runs of 40');
    expect(runIdsOf(project, 'tiny')).toEqual(ids.slice(10).reverse());
  });

  it('a parley.yaml with a bad history setting is a configuration error (exit 2) naming file:line:column; nothing is removed', async () => {
    const project = writeSuite({ 'parley.yaml': 'suite: tiny\nagents:\n  a: { kind: openai, model: gpt-4.1-mini }\nsettings:\n  history: { keep_runs: 0 }\n' });
    seedHistory(project, 'tiny', 3);
    const pruned = await parleyAt(project, ['runs', 'prune'], new Date(firstDay));
    expect(pruned.code).toBe(2);
    expect(pruned.stderr).toMatch(/parley\.yaml:5:\d+/);
    expect(runIdsOf(project, 'tiny')).toHaveLength(3);
  });
});

describe('the prune after each parley run (real binary, replay)', () => {
  let recorded: string;
  beforeAll(async () => {
    recorded = await recordedGateSuite();
  }, 120_000);
  afterAll(() => rmSync(recorded, { recursive: true, force: true }));

  it('keeps settings.history.keep_runs runs, the new one among them, and the run that wrote the baseline', async () => {
    const project = copySuite(recorded);
    writeFileSync(join(project, 'parley.yaml'), `${readFileSync(join(project, 'parley.yaml'), 'utf8')}  history: { keep_runs: 3 }\n`);
    rmSync(join(project, '.parley'), { recursive: true, force: true });

    const baselineRun = await parleyAsync(['run', '.', '--export-baseline', 'baselines/main.json'], { cwd: project });
    expect([0, 1], baselineRun.stderr).toContain(baselineRun.status);
    const [baselineRunId] = runIdsOf(project, 'gate_demo');
    const baselineStarted = Date.parse(readRun(project, baselineRunId!).started_at);
    // Five later runs (a millisecond apart, after the baseline's run and before the next one),
    // written through the store, push the baseline's run out of the last three.
    const seeded = seedHistory(project, 'gate_demo', 5, { from: baselineStarted + 1, stepMs: 1 });
    expect(runIdsOf(project, 'gate_demo')).toHaveLength(6);

    const run = await parleyAsync(['run', '.'], { cwd: project });
    expect([0, 1]).toContain(run.status);
    expect(run.stderr).toContain('history: removed 3 old runs of this suite and 3 report folders (settings.history)');
    const kept = runIdsOf(project, 'gate_demo');
    // The new run, the two newest seeded ones, and the baseline's run (kept outside the limit).
    expect(kept).toHaveLength(4);
    expect(kept).toContain(baselineRunId);
    expect(kept).toEqual(expect.arrayContaining([seeded[4], seeded[3]]));
    expect(kept).not.toContain(seeded[0]);
    expect(existsSync(join(project, '.parley', 'runs', seeded[0]!))).toBe(false);
    expect(existsSync(join(project, 'baselines', 'main.json'))).toBe(true);
  });
});
