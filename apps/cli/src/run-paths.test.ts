import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyExample } from './test-support/example-copy.js';
import { parleyIn } from './test-support/gate-suite.js';

/**
 * Where a run writes, and what it reads, when the path is not what it should be: each is one
 * clear line and exit 2, never a stack trace, a hang or two runs writing into one folder.
 */

const mounts: string[] = [];

afterAll(() => {
  for (const mount of mounts) spawnSync('umount', [mount]);
});

/**
 * A folder no one may write to. Root writes through chmod, so for root it is a tmpfs mounted
 * read-only (a suite on a read-only file system); `fill` runs before the remount.
 */
function readOnlyFolder(fill: (dir: string) => void = () => {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-read-only-'));
  if (process.getuid?.() !== 0) {
    fill(dir);
    execFileSync('chmod', ['-R', 'a-w', dir]);
    return dir;
  }
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dir]);
  mounts.push(dir);
  fill(dir);
  execFileSync('mount', ['-o', 'remount,ro', dir]);
  return dir;
}

function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('error: '));
}

describe('--out and the suite folder', () => {
  it('refuses an --out that is an existing file, with one line', async () => {
    const suite = copyExample('booking');
    writeFileSync(join(suite, 'taken'), 'not a folder');
    const run = await parleyIn(suite, ['run', '.', '--out', 'taken']);
    expect(run.code).toBe(2);
    expect(errorLines(run.stderr)).toEqual([`error: ${join(suite, 'taken')} is a file, not a folder: give --out a folder for the reports`]);
    expect(readFileSync(join(suite, 'taken'), 'utf8')).toBe('not a folder');
  });

  it('refuses a read-only --out folder, with one line', async () => {
    const suite = copyExample('booking');
    const readOnly = readOnlyFolder();
    const run = await parleyIn(suite, ['run', '.', '--out', join(readOnly, 'reports')]);
    expect(run.code).toBe(2);
    expect(errorLines(run.stderr)).toEqual([
      expect.stringMatching(new RegExp(`^error: cannot create the report folder ${join(readOnly, 'reports')}: (read-only file system|permission denied) \\(choose another folder with --out\\)$`)),
    ]);
  });

  it('refuses a suite on a read-only file system with one line: its report folder, then its run history', async () => {
    const suite = readOnlyFolder((dir) => cpSync(copyExample('booking'), dir, { recursive: true }));
    const inPlace = await parleyIn(suite, ['run', '.']);
    expect(inPlace.code).toBe(2);
    expect(errorLines(inPlace.stderr)).toEqual([expect.stringMatching(/^error: cannot create the report folder .*\.parley\/runs\/\S+: (read-only file system|permission denied)/)]);
    const elsewhere = await parleyIn(suite, ['run', '.', '--out', mkdtempSync(join(tmpdir(), 'parley-out-'))]);
    expect(elsewhere.code).toBe(2);
    expect(errorLines(elsewhere.stderr)).toEqual([expect.stringMatching(/^error: cannot open the run history .*\.parley\/parley\.db: /)]);
    expect(inPlace.stderr + elsewhere.stderr).not.toMatch(/^\s+at /m);
  });

  it('refuses a folder another live run holds, and takes over the lock of a run that died', async () => {
    const suite = copyExample('booking');
    mkdirSync(join(suite, 'shared'));
    // This test's own process is alive: as if another run were writing there now.
    writeFileSync(join(suite, 'shared/.parley-run.lock'), JSON.stringify({ pid: process.pid, run_id: '20261126-120000-aaaaaa' }));
    const second = await parleyIn(suite, ['run', '.', '--out', 'shared']);
    expect(second.code).toBe(2);
    expect(errorLines(second.stderr)).toEqual([
      `error: ${join(suite, 'shared')} is in use: run 20261126-120000-aaaaaa (pid ${process.pid}) is writing its reports there; give this run another --out`,
    ]);
    expect(existsSync(join(suite, 'shared/events.jsonl'))).toBe(false);

    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(join(suite, 'shared/.parley-run.lock'), JSON.stringify({ pid: dead, run_id: '20261126-120000-bbbbbb' }));
    const after = await parleyIn(suite, ['run', '.', '--out', 'shared']);
    expect(after.code, after.stderr).not.toBe(2);
    expect(existsSync(join(suite, 'shared/report.json'))).toBe(true);
    expect(existsSync(join(suite, 'shared/.parley-run.lock'))).toBe(false); // released at the end
  });

  it('refuses a recording that is a FIFO instead of waiting on it for ever', async () => {
    const suite = copyExample('booking');
    const recording = join(suite, 'recordings/spa_booking_codeswitch.jsonl');
    rmSync(recording);
    execFileSync('mkfifo', [recording]);
    const run = await parleyIn(suite, ['run', '.', '--scenario', 'spa_booking_codeswitch']);
    expect(run.code).toBe(2);
    expect(errorLines(run.stderr)).toEqual([
      'error: recordings/spa_booking_codeswitch.jsonl: the recording is not a regular file (a FIFO, device or folder?); remove it or point `recordings:` elsewhere',
    ]);
  });
});

describe('usage errors and small truths', () => {
  it('leaves no phantom run in the history after a usage error', async () => {
    const suite = copyExample('booking');
    const recordWithReplayedJudge = await parleyIn(suite, ['run', '.', '--mode', 'record', '--judge', 'replay']);
    expect(recordWithReplayedJudge.code).toBe(2);
    const badBudget = await parleyIn(suite, ['run', '.'], { PARLEY_BUDGET_USD: 'abc' });
    expect(badBudget.code).toBe(2);
    expect(badBudget.stderr).toContain('PARLEY_BUDGET_USD must be an amount of US dollars ≥ 0 (e.g. 5 or 0.50), got "abc"');
    const history = await parleyIn(suite, ['runs', 'list']);
    expect(history.stdout).toBe('no runs yet: start one with `parley run <suite>`\n');
  });

  it('says that a suite has no runs, when it is the suite that has none', async () => {
    const suite = copyExample('booking');
    expect((await parleyIn(suite, ['run', '.', '--scenario', 'spa_booking_codeswitch'])).code).toBe(0);
    const none = await parleyIn(suite, ['runs', 'list', '--suite', 'nosuch']);
    expect(none.stdout).toBe('suite nosuch has no runs (parley runs list shows the runs of every suite)\n');
  });

  it('names the real suite in the command that records a missing recording, and counts in the singular', async () => {
    const suite = copyExample('booking');
    rmSync(join(suite, 'recordings/spa_booking_english_happy.jsonl'));
    const run = await parleyIn(suite, ['run', '.', '--scenario', 'spa_booking_english_happy']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`Record it with: parley run ${suite} --mode record --scenario spa_booking_english_happy`);
    expect(run.stdout).not.toContain('<suite>');
    expect(run.stdout).toMatch(/ · 1 scenario: 1 error · /);
  });
});
