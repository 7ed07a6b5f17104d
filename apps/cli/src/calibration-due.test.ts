import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './test-support/example-copy.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');

/** A working directory holding the repository's calibration set, and no judge session yet. */
function withCalibrationSet(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'parley-due-'));
  cpSync(join(REPO_ROOT, 'calibration'), join(cwd, 'calibration'), { recursive: true });
  return cwd;
}

function parley(cwd: string, args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }, encoding: 'utf8', timeout: 60_000 });
}

describe('the monthly judge calibration', () => {
  it('parley calibrate status and parley run warn when the judges were never calibrated against ./calibration', () => {
    const cwd = withCalibrationSet();
    const status = parley(cwd, ['calibrate', 'status']);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toContain('warning: the monthly judge calibration is overdue: the judges have never been calibrated against this set');

    const run = parley(cwd, ['run', join(REPO_ROOT, 'examples/booking'), '--scenario', 'spa_price_question_sw', '--out', 'out']);
    expect(run.status, run.stderr).toBe(0); // a warning, never a failure
    expect(run.stderr).toContain('warning: the monthly judge calibration is overdue: the judges have never been calibrated against this set');
  });

  it('parley run says nothing about calibration where there is no calibration set', () => {
    const run = parley(mkdtempSync(join(tmpdir(), 'parley-due-')), ['run', join(REPO_ROOT, 'examples/booking'), '--scenario', 'spa_price_question_sw', '--out', 'out']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('calibration');
  });
});
