import { loadCalibrationSet, openCalibrationStore, type CalibrationFolder, type PairSource, type StoredReport } from '@parley/calibration';
import { ConfigError } from '@parley/core';
import { storeExists } from '@parley/store';

/**
 * What the pairs behind the report's matrices are made from: the set as it is now, and the judge
 * session's ratings from the run history (`.parley/parley.db`, never created here). Human vs human
 * needs only the set, so a missing session leaves `modelRatings` empty and says why in `problem`.
 */
export type PairSourceRead = { source: PairSource; problem?: string } | { problem: string };

export function readPairSource(folder: CalibrationFolder, storePath: string, report: StoredReport): PairSourceRead {
  let set;
  try {
    set = loadCalibrationSet(folder.setFile);
  } catch (error) {
    if (error instanceof ConfigError) return { problem: `cannot read the set: ${error.message}` };
    throw error;
  }
  const rubricVersion = report.session.rubric_version ?? set.rubric_version;
  const missing = `no judge ratings of session ${report.session.id} in .parley/parley.db here: \`parley calibrate report\` replays them`;
  if (!storeExists(storePath)) return { source: { set, rubricVersion, modelRatings: [] }, problem: missing };
  let store;
  try {
    store = openCalibrationStore(storePath);
    const modelRatings = store.session(report.session.id) === undefined ? undefined : store.ratings(report.session.id);
    return modelRatings ? { source: { set, rubricVersion, modelRatings } } : { source: { set, rubricVersion, modelRatings: [] }, problem: missing };
  } catch (error) {
    return { source: { set, rubricVersion, modelRatings: [] }, problem: `cannot read .parley/parley.db: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    store?.close();
  }
}
