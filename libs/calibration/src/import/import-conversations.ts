import type { RedactionConfig } from '@parley/config';
import type { ScenarioResult } from '@parley/core';
import { readConversationLog } from '@parley/production';
import type { Redactor } from '@parley/redaction';
import { writeStarterRubricIfMissing } from '../judge/starter-rubric.js';
import type { UpdateCalibrationSetOptions } from '../set-file/update-calibration-set.js';
import { addCalibrationItems, type AddedItem } from './add-calibration-items.js';
import type { CandidateDefaults, ItemCandidate, PassedOver } from './item-candidate.js';
import { loggedConversationCandidate, type CandidateOutcome } from './logged-conversation-candidate.js';
import { scenarioResultCandidate } from './scenario-result-candidate.js';

/** What to import: a JSON-lines conversation log, or the transcripts of a stored run. */
export type ImportSource =
  | { kind: 'log'; path: string; /** as the user wrote it, for messages */ shown: string }
  | { kind: 'run'; runId: string; results: readonly ScenarioResult[] };

export interface ImportInput {
  /** `human_labelled.yaml`. */
  setFile: string;
  source: ImportSource;
  /** The one redactor (a suite's, or the floor with the environment's secrets). */
  redactor: Redactor;
  /** The suite's `redaction:` settings, for restricted verticals. */
  redaction?: RedactionConfig;
  defaults?: CandidateDefaults;
  now: Date;
  /** The set to start from when the folder has none yet. */
  initialText?: string;
  /**
   * `rubric.md` of the folder: when it does not exist and items were added, a starter rubric is
   * written there, so that the new set can be rated and judged at once.
   */
  rubricFile?: string;
  lock?: UpdateCalibrationSetOptions;
}

export interface ImportResult {
  added: AddedItem[];
  /** Duplicates and conversations with nothing to rate. */
  skipped: PassedOver[];
  /** Conversations that may not be imported (restricted vertical, metadata_only, no language). */
  refused: PassedOver[];
  /** The starter `rubric.md` written because the folder had none. */
  rubric?: string;
}

/**
 * `parley calibrate import`: masks each conversation with the redactor, refuses what may not leave
 * production, skips duplicates by content digest, and adds the rest as unrated items. A log with a
 * bad line is a ConfigError (file:line) before anything is added.
 */
export async function importConversations(input: ImportInput): Promise<ImportResult> {
  const context = { redactor: input.redactor, redaction: input.redaction, defaults: input.defaults ?? {} };
  const source = input.source;
  const outcomes: CandidateOutcome[] =
    source.kind === 'log'
      ? readConversationLog(source.path).map(({ line, value }) => loggedConversationCandidate(value, `${source.shown}:${line}`, context))
      : source.results.map((result) => scenarioResultCandidate(result, `run ${source.runId} scenario ${result.scenario_id}`, context));

  const candidates: ItemCandidate[] = [];
  const skipped: PassedOver[] = [];
  const refused: PassedOver[] = [];
  for (const outcome of outcomes) {
    if ('candidate' in outcome) candidates.push(outcome.candidate);
    else if ('refused' in outcome) refused.push(outcome.refused);
    else skipped.push(outcome.skipped);
  }
  if (candidates.length === 0) return { added: [], skipped, refused };
  const result = await addCalibrationItems(input.setFile, candidates, input.now, {
    ...input.lock,
    ...(input.initialText !== undefined ? { initialText: input.initialText } : {}),
  });
  const rubric = result.added.length > 0 && input.rubricFile !== undefined ? writeStarterRubricIfMissing(input.rubricFile, input.setFile) : undefined;
  return { added: result.added, skipped: [...skipped, ...result.skipped], refused, ...(rubric !== undefined ? { rubric } : {}) };
}
