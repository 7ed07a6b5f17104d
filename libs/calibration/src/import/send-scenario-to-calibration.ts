import type { ScenarioResult } from '@parley/core';
import { calibrationFolder } from '../calibration-folder.js';
import { loadRubric } from '../judge/rubric-file.js';
import { writeStarterRubricIfMissing } from '../judge/starter-rubric.js';
import { loadCalibrationSet } from '../set-file/calibration-set-file.js';
import { newCalibrationSetText } from '../set-file/new-calibration-set.js';
import type { UpdateCalibrationSetOptions } from '../set-file/update-calibration-set.js';
import { importRedactor, type SuiteSettings } from '../suite-settings.js';
import { addCalibrationItems } from './add-calibration-items.js';
import { scenarioResultCandidate } from './scenario-result-candidate.js';
import { transcriptDigest } from './transcript-digest.js';

export interface SendToCalibrationInput {
  /** The calibration folder (`human_labelled.yaml`, `rubric.md`). */
  calibrationDir: string;
  cwd: string;
  runId: string;
  /** The stored result, with its transcript. */
  result: ScenarioResult;
  /** The suite the run belongs to: its redactor and restricted verticals. The floor redactor without it. */
  suite?: SuiteSettings;
  /** The scenario's `vertical:` (from its file), for the restricted-vertical rule. */
  vertical?: string;
  env: NodeJS.ProcessEnv;
  now: Date;
  lock?: UpdateCalibrationSetOptions;
}

/**
 * What sending did: `file` is `human_labelled.yaml`; `rubric` is set when the folder had no
 * `rubric.md` and a starter rubric was written there, so that the set can be rated.
 */
export type SendToCalibrationOutcome =
  | { kind: 'added'; id: string; file: string; rubric?: string }
  | { kind: 'already'; id: string; file: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'skipped'; reason: string };

/**
 * Triage's "send to calibration": the scenario's transcript, masked with the suite's redactor,
 * becomes an unrated item (`source: scenario:<id>`) of the calibration set, for the reviewers'
 * next session. The same rules as `parley calibrate import --from-run`: a `metadata_only`
 * scenario or a restricted vertical without redaction extras is refused and nothing is written;
 * a transcript already in the set (same masked content) is not added twice.
 */
export async function sendScenarioToCalibration(input: SendToCalibrationInput): Promise<SendToCalibrationOutcome> {
  const folder = calibrationFolder(input.calibrationDir, input.cwd);
  const outcome = scenarioResultCandidate(input.result, `run ${input.runId} scenario ${input.result.scenario_id}`, {
    redactor: importRedactor(input.suite, input.env),
    redaction: input.suite?.config.redaction,
    defaults: input.vertical !== undefined ? { vertical: input.vertical } : {},
  });
  if ('refused' in outcome) return { kind: 'refused', reason: outcome.refused.reason };
  if ('skipped' in outcome) return { kind: 'skipped', reason: outcome.skipped.reason };
  const added = await addCalibrationItems(folder.setFile, [outcome.candidate], input.now, {
    ...input.lock,
    initialText: newCalibrationSetText({ rubricVersion: rubricVersionOf(folder.rubricFile), owner: 'calibration-owner' }),
  });
  const item = added.added[0];
  if (item !== undefined) {
    const rubric = writeStarterRubricIfMissing(folder.rubricFile, folder.setFile);
    return { kind: 'added', id: item.id, file: folder.setFile, ...(rubric ? { rubric } : {}) };
  }
  const digest = transcriptDigest(outcome.candidate.transcript);
  const existing = loadCalibrationSet(folder.setFile).items.find((candidate) => transcriptDigest(candidate.transcript) === digest);
  return existing !== undefined
    ? { kind: 'already', id: existing.id, file: folder.setFile }
    : { kind: 'skipped', reason: added.skipped[0]?.reason ?? 'not added' };
}

/** The rubric's version for a new set (a set and its rubric carry the same one), else 1.0.0. */
function rubricVersionOf(rubricFile: string): string {
  try {
    return loadRubric(rubricFile).version;
  } catch {
    return '1.0.0';
  }
}
