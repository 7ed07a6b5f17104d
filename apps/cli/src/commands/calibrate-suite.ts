import { resolve } from 'node:path';
import { resolveRaters, type CalibrationRaters, type SuiteSettings } from '@parley/calibration';
import type { CommandContext } from '../program/command-context.js';

/** The judges of `calibrate judge` and `calibrate report`: flags, else the suite's, else the defaults. */
export interface ModelFlags {
  suite?: string;
  judge?: string;
  crossCheck?: string;
}

/** `--suite`: its parley.yaml (judges, prices, retries, redaction) and its store setting. */
export async function suiteOf(flags: { suite?: string }, context: CommandContext): Promise<SuiteSettings | undefined> {
  if (flags.suite === undefined) return undefined;
  const { readSuiteSettings } = await import('@parley/calibration');
  const suite = readSuiteSettings(resolve(context.cwd, flags.suite));
  (await import('@parley/store')).useSuiteStoreSetting(suite.config.settings?.store);
  return suite;
}

export function ratersOf(flags: ModelFlags, suite: SuiteSettings | undefined): CalibrationRaters {
  return resolveRaters({
    ...(flags.judge !== undefined ? { judgeFlag: flags.judge } : {}),
    ...(flags.crossCheck !== undefined ? { crossCheckFlag: flags.crossCheck } : {}),
    ...(suite?.config.judge !== undefined ? { suiteJudge: suite.config.judge } : {}),
  });
}
