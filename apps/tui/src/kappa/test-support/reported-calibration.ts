import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CalibrationReport } from '@parley/calibration';

/** The built `parley` (the test setup runs `npm run build`). */
export const PARLEY = fileURLToPath(new URL('../../../../cli/bin/parley.js', import.meta.url));
const REPO = fileURLToPath(new URL('../../../../../', import.meta.url));

/**
 * The example calibration folder after a real `parley calibrate report`: the recorded judge calls
 * are replayed into `.parley/parley.db` (offline) and the report is written to `reports/`.
 * `remove` deletes the folder.
 */
export function reportedExampleCalibration(): { dir: string; report: CalibrationReport; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'parley-kappa-e2e-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  cpSync(join(REPO, 'calibration'), join(dir, 'calibration'), { recursive: true });
  rmSync(join(dir, 'calibration', 'reports'), { recursive: true, force: true });
  const made = spawnSync(process.execPath, [PARLEY, 'calibrate', 'report', '--dir', 'calibration'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8' });
  // The example judge fails the gate on one axis: exit 1, the report written all the same.
  if (made.status !== 1) throw new Error(`parley calibrate report exited ${made.status}: ${made.stderr}`);
  const [file] = readdirSync(join(dir, 'calibration', 'reports')).filter((name) => name.endsWith('.json'));
  return { dir, report: JSON.parse(readFileSync(join(dir, 'calibration', 'reports', file!), 'utf8')) as CalibrationReport, remove };
}
