import { existsSync } from 'node:fs';
import type { RunWarning } from '@parley/gate';

/** The calibration folder a run looks at: the one `parley calibrate` uses by default. */
const DEFAULT_CALIBRATION_DIR = 'calibration';

/**
 * A run of a suite with a judge warns when the monthly calibration of the judges is due (see
 * calibrationDue): no judge session in 35 days, or too few new items in the last one. Only when
 * `./calibration` holds a calibration set: a team that does not calibrate is not nagged, and a
 * set that does not load is `parley calibrate`'s to report, not the run's. Never fails the run.
 */
export async function calibrationWarnings(input: { cwd: string; storePath: string; now: Date; parleyCommand?: () => string }): Promise<RunWarning[]> {
  const calibration = await import('@parley/calibration');
  const folder = calibration.calibrationFolder(DEFAULT_CALIBRATION_DIR, input.cwd);
  if (!existsSync(folder.setFile)) return [];
  let set;
  try {
    set = calibration.loadCalibrationSet(folder.setFile);
  } catch {
    return [];
  }
  const store = calibration.openCalibrationStore(input.storePath);
  try {
    const due = calibration.calibrationDue(set, store.sessions(folder.shown, 1000), input.now, input.parleyCommand?.());
    return due.warnings.map((message) => ({ kind: 'calibration_due', message: `${message} [${folder.shown}]`, fails_under_strict: false }));
  } finally {
    store.close();
  }
}
