import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCalibrationSet, openCalibrationStore, type CalibrationReport, type PairSource } from '@parley/calibration';

export const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));
const PARLEY = join(REPOSITORY, 'apps/cli/bin/parley.js');

/** The scenario of the booking example that the fixtures make metadata_only. */
export const METADATA_ONLY_SCENARIO = 'spa_prompt_injection';

export interface BookingFixtures {
  dir: string;
  /** `parley run booking` of the example (one scenario made metadata_only): its --out folder. */
  run: string;
  /** `parley run booking --agent booking --agent booking_v2`. */
  comparison: string;
  /** `parley run variants` of examples/variants (one scenario, six variants): its --out folder. */
  variants: string;
  /** The example calibration folder after `parley calibrate report`. */
  calibration: string;
  calibrationHtml: string;
  calibrationReport: CalibrationReport;
  pairSource: PairSource;
}

/**
 * Runs the real CLI in `dir` on a copy of examples/booking (replayed from its recordings, no
 * network), with `spa_prompt_injection` made metadata_only, once as is and once comparing its two
 * agents, examples/variants once, and `parley calibrate report` on a copy of the example calibration folder, each of
 * which writes its HTML page.
 */
export function makeBookingFixtures(dir: string): BookingFixtures {
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(REPOSITORY, 'examples/booking'), join(dir, 'booking'), { recursive: true });
  cpSync(join(REPOSITORY, 'examples/variants'), join(dir, 'variants'), { recursive: true });
  const scenario = join(dir, 'booking/scenarios', `${METADATA_ONLY_SCENARIO}.yaml`);
  writeFileSync(scenario, readFileSync(scenario, 'utf8').replace(/^id: .*$/m, (line) => `${line}\nmetadata_only: true`));
  cpSync(join(REPOSITORY, 'calibration'), join(dir, 'calibration'), { recursive: true, filter: (source) => !source.includes('/reports/') });

  const parley = (args: string[], okCodes: number[] = [0]) => {
    try {
      execFileSync(process.execPath, [PARLEY, ...args], { cwd: dir, stdio: 'pipe', env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' } });
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === undefined || !okCodes.includes(status)) throw error;
    }
  };
  parley(['run', 'booking', '--out', 'run']);
  parley(['run', 'booking', '--agent', 'booking', '--agent', 'booking_v2', '--out', 'comparison'], [0, 1]);
  parley(['run', 'variants', '--out', 'variants-run']);
  // Exit 1 when the example's gate fails (cultural_appropriateness is below the minimum on purpose).
  parley(['calibrate', 'report', '--dir', 'calibration'], [0, 1]);

  // The CLI writes report.html beside report.json, and the calibration page beside its report.
  const run = join(dir, 'run');
  const comparison = join(dir, 'comparison');
  const variants = join(dir, 'variants-run');

  const calibration = join(dir, 'calibration');
  const reportsDir = join(calibration, 'reports');
  const reportFile = readdirSync(reportsDir).find((name) => name.endsWith('.json'))!;
  const calibrationReport = JSON.parse(readFileSync(join(reportsDir, reportFile), 'utf8')) as CalibrationReport;
  const store = openCalibrationStore(join(dir, '.parley/parley.db'));
  let pairSource: PairSource;
  try {
    pairSource = { set: loadCalibrationSet(join(calibration, 'human_labelled.yaml')), rubricVersion: calibrationReport.session.rubric_version, modelRatings: store.ratings(calibrationReport.session.id) };
  } finally {
    store.close();
  }
  const calibrationHtml = join(reportsDir, reportFile.replace(/\.json$/, '.html'));
  return { dir, run, comparison, variants, calibration, calibrationHtml, calibrationReport, pairSource };
}
