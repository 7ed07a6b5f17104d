import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The example suite's calibration folder (25 items rated by rev-a and rev-b, rubric 1.0.0). */
export const EXAMPLE_CALIBRATION = fileURLToPath(new URL('../../../../../calibration/', import.meta.url));

/** A temporary copy of the example calibration set and its rubric; returns the folder. */
export function exampleCalibrationCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-rate-'));
  for (const name of ['human_labelled.yaml', 'rubric.md']) copyFileSync(join(EXAMPLE_CALIBRATION, name), join(dir, name));
  return dir;
}

/** A temporary calibration folder holding `setText` and the example rubric. */
export function calibrationFolderWith(setText: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-rate-'));
  writeFileSync(join(dir, 'human_labelled.yaml'), setText);
  copyFileSync(join(EXAMPLE_CALIBRATION, 'rubric.md'), join(dir, 'rubric.md'));
  return dir;
}
