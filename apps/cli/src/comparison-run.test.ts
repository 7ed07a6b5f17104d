import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReportFile } from '@parley/reports';
import { BaselineSchema } from '@parley/config';
import { REPO_ROOT, copyExample } from './test-support/example-copy.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
/** Tests that start several `parley` processes one after another get more than the default 30 s on a busy machine. */
const PROCESSES_TIMEOUT_MS = 120_000;
const SUPPORT = join(REPO_ROOT, 'apps/cli/src/test-support');

/** The real binary, offline: any network attempt is logged (and refused) by no-network.cjs. */
function parley(args: string[]) {
  const cwd = mkdtempSync(join(tmpdir(), 'parley-compare-'));
  const networkLog = join(cwd, 'network.log');
  const run = spawnSync(process.execPath, ['--require', join(SUPPORT, 'no-network.cjs'), BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', PARLEY_NETWORK_LOG: networkLog },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { ...run, cwd, networkAttempts: existsSync(networkLog) ? readFileSync(networkLog, 'utf8') : '' };
}

/** A copy of the booking example whose parley.yaml compares booking and booking_v2 in every run. */
function matrixSuite(): string {
  const suite = copyExample('booking');
  appendFileSync(join(suite, 'parley.yaml'), '\nmatrix:\n  agents: [booking, booking_v2]\n');
  return suite;
}

describe('parley run --agent A --agent B (a comparison run)', () => {
  it('replays both booking prompts offline and prints each agent side by side with a winner per metric', () => {
    const run = parley(['run', join(REPO_ROOT, 'examples/booking'), '--agent', 'booking', '--agent', 'booking_v2', '--out', 'out']);
    // booking_v2 leaves the price out of its offers: it fails blocking scenarios, so the gate fails.
    expect(run.status, run.stderr).toBe(1);
    expect(run.networkAttempts).toBe('');
    expect(run.stdout).toContain('Agents compared: booking vs booking_v2');
    expect(run.stdout).toMatch(/^booking_slot_consistency +0\.96 +0\.50 +-0\.46 +0\.031 +booking$/m);
    expect(run.stdout).toMatch(/^fluency_sw +0\.88 +0\.88 +0\.00 +1\.000 +no clear winner$/m);
    expect(run.stdout).toMatch(/^booking +8 +7 +1 +0 +\$\d+\.\d{4} +\d+ +\d+ ms \/ \d+ ms$/m);
    expect(run.stdout).toMatch(/^ {2}booking_slot_consistency +0\.75 +0\.50 +-0\.25$/m); // spa_reschedule_sw
    const table = run.stdout.slice(run.stdout.indexOf('Agents compared'), run.stdout.indexOf('Judge '));
    for (const line of table.split('\n')) expect(line.length, line).toBeLessThan(100); // off a terminal: 100 columns

    const report = readReportFile(join(run.cwd, 'out', 'report.json'));
    const keys = report.results.map((result) => `${result.scenario_id}|${result.agent}`);
    expect(keys).toHaveLength(16);
    expect(new Set(keys).size).toBe(16);
    expect(keys).toContain('spa_booking_swahili_happy|booking');
    expect(keys).toContain('spa_booking_swahili_happy@booking_v2|booking_v2');
    expect(report.comparison?.agents).toEqual(['booking', 'booking_v2']);
    expect(report.comparison?.tests.find((test) => test.metric === 'booking_slot_consistency')).toMatchObject({ pairs: 6, winner: 'booking' });
    // Fair: both agents are cross-checked on the same scenario.
    expect(report.judge?.cross_check?.checked).toEqual(['spa_price_question_sw', 'spa_price_question_sw@booking_v2']);

    const junit = readFileSync(join(run.cwd, 'out', 'junit.xml'), 'utf8');
    expect(junit).toContain('classname="parley.ratiba_booking.booking_v2" name="spa_booking_swahili_happy [booking_v2]"');
    expect(junit).toContain('classname="parley.ratiba_booking.booking" name="spa_booking_swahili_happy [booking]"');
    const summary = readFileSync(join(run.cwd, 'out', 'summary.md'), 'utf8');
    expect(summary).toContain('### Agents compared: `booking` vs `booking_v2`');
    expect(summary).toMatch(/\| booking_slot_consistency \| `booking_v2` \| 0\.50 \| `booking` \| 0\.96 \| -0\.46 \| 6 \| 0\.031 \| booking \|/);
  });

  it('takes the agents from matrix: in parley.yaml, and keys baseline entries by scenario and agent', () => {
    const suite = matrixSuite();
    const exported = parley(['run', suite, '--scenario', 'spa_price_question_sw', '--export-baseline', 'baseline.json', '--out', 'out']);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('Agents compared: booking vs booking_v2');
    const baseline = BaselineSchema.parse(JSON.parse(readFileSync(join(exported.cwd, 'baseline.json'), 'utf8')));
    expect(new Set(baseline.entries.map((entry) => entry.test_id))).toEqual(new Set(['spa_price_question_sw', 'spa_price_question_sw@booking_v2']));

    const gated = parley(['run', suite, '--scenario', 'spa_price_question_sw', '--baseline', join(exported.cwd, 'baseline.json'), '--out', 'out']);
    expect(gated.status, gated.stderr).toBe(0);
    const gatedReport = readReportFile(join(gated.cwd, 'out', 'report.json'));
    expect(gatedReport.baseline).toMatchObject({ missing: 0, regressions: 0 });
    expect(gatedReport.baseline!.compared).toBe(baseline.entries.length);
  }, PROCESSES_TIMEOUT_MS);

  it('splits a comparison run’s cases between shards, and merge-reports compares the agents over all of them', () => {
    const suite = matrixSuite();
    const shardDirs: string[] = [];
    const shardIds = ['1/2', '2/2'].map((shard) => {
      const run = parley(['run', suite, '--tag', 'booking', '--shard', shard, '--out', 'out']);
      expect(run.status === 0 || run.status === 1, run.stderr).toBe(true);
      shardDirs.push(join(run.cwd, 'out'));
      return readReportFile(join(run.cwd, 'out', 'report.json')).results.map((result) => result.scenario_id);
    });
    const all = [...shardIds[0]!, ...shardIds[1]!].sort();
    expect(all).toContain('spa_booking_swahili_happy');
    expect(all).toContain('spa_booking_swahili_happy@booking_v2');
    expect(new Set(all).size).toBe(all.length);
    expect(shardIds[0]!.length).toBeGreaterThan(0);
    expect(shardIds[1]!.length).toBeGreaterThan(0);
    const merged = parley(['merge-reports', ...shardDirs, '--out', 'merged']);
    expect(merged.status === 0 || merged.status === 1, merged.stderr).toBe(true);
    expect(merged.stdout).toContain('Agents compared: booking vs booking_v2');
    const report = readReportFile(join(merged.cwd, 'merged', 'report.json'));
    expect(report.results.map((result) => result.scenario_id).sort()).toEqual(all);
    // Scores of every scenario of both shards, side by side.
    expect(new Set(report.comparison?.scores.map((row) => row.scenario_id))).toEqual(new Set(all.map((id) => id.replace(/@.*/, ''))));
    expect(report.comparison?.scores.every((row) => row.scores['booking'] !== null && row.scores['booking_v2'] !== null)).toBe(true);
    // Scores of every scenario of both shards, side by side.
    expect(new Set(report.comparison?.scores.map((row) => row.scenario_id))).toEqual(new Set(all.map((id) => id.replace(/@.*/, ''))));
    expect(report.comparison?.scores.every((row) => row.scores['booking'] !== null && row.scores['booking_v2'] !== null)).toBe(true);
  }, PROCESSES_TIMEOUT_MS);

  it('--agent replaces the matrix; one agent runs every scenario against it', () => {
    const single = parley(['run', matrixSuite(), '--agent', 'booking_v2', '--scenario', 'spa_price_question_sw', '--out', 'out']);
    expect(single.status, single.stderr).toBe(0);
    expect(readReportFile(join(single.cwd, 'out', 'report.json')).results.map((result) => result.scenario_id)).toEqual(['spa_price_question_sw@booking_v2']);
  });

  it('refuses an agent the suite does not have, naming parley.yaml and the line', () => {
    const suite = copyExample('booking');
    appendFileSync(join(suite, 'parley.yaml'), '\nmatrix:\n  agents: [booking, bookin_v2]\n');
    const run = parley(['run', suite]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/parley\.yaml:\d+:\d+.*unknown agent "bookin_v2" \(did you mean "booking_v2"\?\)/);
    const flag = parley(['run', join(REPO_ROOT, 'examples/booking'), '--agent', 'nobody']);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toMatch(/--agent nobody: no such agent/);
  });
});
