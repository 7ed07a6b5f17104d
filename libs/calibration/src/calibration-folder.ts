import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ConfigError } from '@parley/core';
import type { CalibrationSet } from '@parley/config';
import { loadRubric, RUBRIC_FILE, type CalibrationRubric } from './judge/rubric-file.js';
import { CALIBRATION_SET_FILE, loadCalibrationSet } from './set-file/calibration-set-file.js';

/** The files of a calibration folder (docs/calibration.md, "The folder": `--dir`, default `./calibration`). */
export interface CalibrationFolder {
  dir: string;
  /** The folder relative to the working directory (`calibration`): sessions are stored under it. */
  shown: string;
  setFile: string;
  rubricFile: string;
  /** Every judge and cross-check call of `parley calibrate judge --mode record`. */
  recordingFile: string;
  reportsDir: string;
}

export function calibrationFolder(dir: string, cwd: string): CalibrationFolder {
  const absolute = resolve(cwd, dir);
  const shown = relative(cwd, absolute) || '.';
  return {
    dir: absolute,
    shown: shown.split('\\').join('/'),
    setFile: join(absolute, CALIBRATION_SET_FILE),
    rubricFile: join(absolute, RUBRIC_FILE),
    recordingFile: join(absolute, 'recordings', 'judge.jsonl'),
    reportsDir: join(absolute, 'reports'),
  };
}

export function hasRecording(folder: CalibrationFolder): boolean {
  return existsSync(folder.recordingFile);
}

/**
 * The set and its rubric, which must carry the same version: judges and reviewers rate with the
 * same rubric (docs/calibration.md, "The folder"), so a rubric bumped without the set (or the other
 * way round) is an error.
 */
export function loadCalibrationFolder(folder: CalibrationFolder): { set: CalibrationSet; rubric: CalibrationRubric } {
  const set = loadCalibrationSet(folder.setFile);
  const rubric = loadRubric(folder.rubricFile);
  if (rubric.version !== set.rubric_version) {
    throw new ConfigError({
      file: folder.rubricFile,
      line: 2,
      column: 1,
      message: `the rubric is version ${rubric.version} but ${CALIBRATION_SET_FILE} says rubric_version "${set.rubric_version}": change both together`,
    });
  }
  return { set, rubric };
}
