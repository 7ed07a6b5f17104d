import { basename, join } from 'node:path';
import { ConfigError, type ConfigIssue } from '@parley/core';
import type { LoadedSuite } from '@parley/config';
import { restrictedVerticalProblem, type Redactor } from '@parley/redaction';
import { chooseAgent } from '@parley/production';
import { suiteScenarioIds } from './suite-scenario-ids.js';
import { productionLogScenario } from './production-log-scenario.js';
import { readDataset } from './read-dataset.js';
import { sgdScenario, sgdSplit } from './sgd-scenario.js';
import { writeScenarios, type PlannedScenario, type SkippedScenario, type WrittenScenario } from './write-scenarios.js';

export interface DatasetInput {
  suite: LoadedSuite;
  /** `--from-dataset FILE`, absolute. */
  file: string;
  /** As the user gave it, for messages and `reference.source`. */
  shownFile: string;
  /** At most this many scenarios, from the start of the file (default: all). */
  count?: number;
  agent?: string;
  /** Default `<suite>/scenarios/from_dataset`. */
  outDir?: string;
  /** The suite's redactor, for production logs. */
  redactor: Redactor;
  now: Date;
  displayPath: (file: string) => string;
}

export interface DatasetResult {
  format: 'sgd' | 'production-log';
  scenarios_dir: string;
  written: WrittenScenario[];
  skipped: SkippedScenario[];
}

/**
 * `parley generate --from-dataset FILE`: scripted scenarios from recorded dialogues, no model
 * call. SGD dialogues become scenarios with the dataset's user turns and its system's replies as
 * reference; production conversations are masked by the suite's redactor as `parley promote`
 * masks them, and a conversation of a restricted vertical without redaction extras stops the
 * whole command before anything is written (ConfigError naming its line, exit 2).
 */
export function generateFromDataset(input: DatasetInput): DatasetResult {
  const { suite } = input;
  const agent = chooseAgent(suite, input.agent, 'the scenarios are for');
  const dataset = readDataset(input.file);
  const planned: PlannedScenario[] = [];
  const skipped: SkippedScenario[] = [];
  const hasJudge = suite.config.judge?.primary !== undefined;

  if (dataset.format === 'sgd') {
    for (const dialogue of dataset.dialogues.slice(0, input.count)) {
      const source = `dialogue ${dialogue.dialogue_id}`;
      const split = sgdSplit(dialogue, input.file);
      const built = sgdScenario(dialogue, { agent, hasJudge, source: `sgd:${basename(input.file)}#${dialogue.dialogue_id}`, ...(split !== undefined ? { split } : {}) });
      if ('problem' in built) skipped.push({ source: `${input.shownFile}#${dialogue.dialogue_id}`, id: dialogue.dialogue_id, reason: built.problem });
      else planned.push({ ...built, source });
    }
  } else {
    const refusals: ConfigIssue[] = [];
    for (const { line, value: conversation } of dataset.conversations.slice(0, input.count)) {
      const source = `line ${line}`;
      const restricted = restrictedVerticalProblem(suite.config.redaction, conversation.vertical);
      if (restricted !== undefined) {
        refusals.push({ file: input.shownFile, line, column: 1, message: `conversation ${input.redactor.text(conversation.conversation_id)}: ${restricted}; nothing was written` });
        continue;
      }
      const built = productionLogScenario(conversation, { agent, redactor: input.redactor, now: input.now });
      if ('problem' in built) skipped.push({ source, id: input.redactor.text(conversation.conversation_id), reason: built.problem });
      else planned.push({ ...built, source });
    }
    if (refusals.length > 0) throw new ConfigError(refusals);
  }

  const scenariosDir = input.outDir ?? join(suite.dir, 'scenarios', 'from_dataset');
  const outcome = writeScenarios(planned, { dir: scenariosDir, takenIds: suiteScenarioIds(suite), policy: 'skip', displayPath: input.displayPath });
  return { format: dataset.format, scenarios_dir: scenariosDir, written: outcome.written, skipped: [...skipped, ...outcome.skipped] };
}
