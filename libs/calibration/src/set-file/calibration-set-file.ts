import { ConfigError } from '@parley/core';
import { CalibrationSetSchema, parseConfigText, readConfigFile, type CalibrationSet } from '@parley/config';

/** The file name of a calibration set inside its folder (docs/calibration.md, "The folder"). */
export const CALIBRATION_SET_FILE = 'human_labelled.yaml';

/**
 * Reads and validates `human_labelled.yaml`. Any problem (YAML syntax, a rating of 6, an axis the
 * set does not have, a missing file) is a ConfigError whose issues carry file, line and column.
 */
export function loadCalibrationSet(file: string): CalibrationSet {
  return validated(readConfigFile(file, CalibrationSetSchema), file);
}

/** {@link loadCalibrationSet} for text already read (the writer re-reads under its lock). */
export function parseCalibrationSet(text: string, file: string): CalibrationSet {
  return validated(parseConfigText(text, file, CalibrationSetSchema), file);
}

function validated(parsed: ReturnType<typeof readConfigFile<typeof CalibrationSetSchema>>, file: string): CalibrationSet {
  const errors = parsed.issues.filter((issue) => issue.severity !== 'warning');
  if (errors.length > 0 || parsed.data === undefined) {
    throw new ConfigError(errors.length > 0 ? errors : [{ file, message: 'not a calibration set' }]);
  }
  return parsed.data;
}
