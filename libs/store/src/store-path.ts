import { resolve } from 'node:path';

/**
 * The project's database under `cwd`, `.parley/parley.db`: run history, judge cache, model spend,
 * calibration sessions and monitor scores, all in one file that `.gitignore` leaves out.
 */
export function defaultStorePath(cwd: string): string {
  return resolve(cwd, '.parley', 'parley.db');
}
