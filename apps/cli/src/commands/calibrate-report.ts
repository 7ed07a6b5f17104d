import {
  calibrationFolder,
  describeSessionChoice,
  formatBias,
  formatInterval,
  formatMeasure,
  makeCalibrationReport,
  openCalibrationStore,
} from '@parley/calibration';
import { displayPath } from '@parley/core';
import { writeCalibrationHtml } from '@parley/html-report';
import { defaultStorePath } from '@parley/store';
import { parleyIn, type CommandContext } from '../program/command-context.js';
import { integerFlag, numberFlag } from '../program/flags.js';
import { reportText } from '../output/calibration-tables.js';
import { paint } from '../output/output.js';
import type { CalibrateReportFlags } from './calibrate.js';
import { ratersOf, suiteOf } from './calibrate-suite.js';

/** `parley calibrate report`: exit 0 when the gate holds, 1 when an axis is below it, 2 on bad input. */
export async function calibrateReportCommand(flags: CalibrateReportFlags, context: CommandContext): Promise<number> {
  // A kappa is from −1 to 1; the bias limit is in rating points.
  const minKappa = numberFlag('--min-kappa', flags.minKappa, -1, 1);
  const maxBias = numberFlag('--max-bias', flags.maxBias, 0);
  const seed = integerFlag('--seed', flags.seed);
  const resamples = integerFlag('--resamples', flags.resamples, 1);
  const folder = calibrationFolder(flags.dir, context.cwd);
  const suite = await suiteOf(flags, context);
  const raters = ratersOf(flags, suite);
  const store = openCalibrationStore(defaultStorePath(context.cwd));
  try {
    const made = await makeCalibrationReport(
      folder,
      store,
      { gate: { minKappa, maxBias }, bootstrap: { seed, resamples }, raters, parley: parleyIn(context), ...(flags.session !== undefined ? { sessionId: flags.session } : {}) },
      { clock: context.clock, random: context.random, env: context.env },
    );
    // The page beside the .md and .json: the report, and the pairs behind each matrix cell (the
    // set as it is now and the session's ratings, what `parley tui kappa` lists a cell from).
    const pairSource = { set: made.set, rubricVersion: made.report.session.rubric_version, modelRatings: made.ratings };
    const page = writeCalibrationHtml(folder.reportsDir, made.report, pairSource);
    if (flags.format === 'json') context.output.out(`${JSON.stringify(made.report, null, 2)}\n`);
    else {
      const colors = paint(context.output.color);
      if (made.replayed !== undefined) {
        context.output.err(
          colors.dim(`no judge session for ${folder.shown} yet: replayed ${displayPath(folder.recordingFile, context.cwd)} into session ${made.replayed.session.id} (offline, no cost)\n`),
        );
      }
      context.output.out(reportText(made.report, colors, { describeSessionChoice, formatBias, formatInterval, formatMeasure }, context.output.columns, parleyIn(context)));
      context.output.out(`reports: ${displayPath(made.files.markdown, context.cwd)}, ${displayPath(made.files.json, context.cwd)}, ${displayPath(page, context.cwd)}\n`);
    }
    return made.report.gate.passed ? 0 : 1;
  } finally {
    store.close();
  }
}
