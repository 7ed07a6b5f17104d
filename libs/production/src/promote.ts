import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { ConfigError, type ConfigIssue, scenarioFileId, writeNewFileAtomically } from '@parley/core';
import { toYamlText, type LoadedSuite, type RecordingEntry } from '@parley/config';
import { restrictedVerticalProblem, type Redactor } from '@parley/redaction';
import { chooseAgent } from './choose-agent.js';
import { conversationEnd, type LoggedConversation } from './conversation-log.js';
import { wantsPromotion, type Feedback } from './feedback.js';
import type { Located } from './json-lines.js';
import { buildPromotedRecording } from './production-recording.js';
import { promotedScenario } from './promoted-scenario.js';

export interface PromoteInput {
  suite: LoadedSuite;
  /** `--logs FILE`, as given (for messages) and read. */
  logsFile: string;
  conversations: ReadonlyArray<Located<LoggedConversation>>;
  feedback: readonly Feedback[];
  /** The suite's redactor (with the environment's secrets). */
  redactor: Redactor;
  /** `--agent NAME`; else the suite's only agent. */
  agent?: string;
  /** `--since`: conversations that ended before this are skipped. */
  since?: Date;
  now: Date;
  /** Where scenario files go (default `<suite>/scenarios/from_production`). */
  outDir?: string;
}

interface PromotedFile {
  scenario_id: string;
  /** Where the conversation was in the logs (`logs.jsonl:4`). */
  source: string;
  scenario_file: string;
  recording_file: string;
  title: string;
  notes: string[];
}

interface SkippedConversation {
  source: string;
  /** The conversation id, masked (ids are often phone numbers). */
  conversation: string;
  reason: string;
}

export interface PromotionResult {
  promoted: PromotedFile[];
  skipped: SkippedConversation[];
  /** Logged conversations that had no feedback at all. */
  without_feedback: number;
  /** Conversations named by feedback but missing from the logs. */
  feedback_without_log: number;
  scenarios_dir: string;
}

/**
 * `parley promote` (docs/privacy.md, "Promoting production feedback"): conversations with negative
 * feedback (👎, or a comment without a 👍) become masked candidate scenarios under
 * `scenarios/from_production/`, each with a recording of the agent's real replies so it replays
 * offline.
 *
 * Nothing is written until everything is decided. A conversation of a restricted vertical without
 * redaction extras stops the whole promotion with a ConfigError naming it, before any file is
 * written (docs/privacy.md: blocked, not shipped half-masked). Existing files are never overwritten:
 * a conversation whose scenario or recording exists is skipped (files are created exclusively, so
 * not even a concurrent run can overwrite one).
 */
export async function promoteConversations(input: PromoteInput): Promise<PromotionResult> {
  const { suite, redactor } = input;
  const agent = chooseAgent(suite, input.agent, 'the conversations were with');
  const scenariosDir = input.outDir ?? join(suite.dir, 'scenarios', 'from_production');
  const recordingsDir = isAbsolute(suite.config.recordings) ? suite.config.recordings : join(suite.dir, suite.config.recordings);
  const existingIds = new Set(suite.scenarios.map((scenario) => scenarioFileId(scenario.data.id)));
  const feedbackById = indexFeedback(input.feedback);
  const matched = new Set<Feedback>();

  const skipped: SkippedConversation[] = [];
  const refusals: ConfigIssue[] = [];
  const planned: Array<{ file: PromotedFile; yaml: string; recording: RecordingEntry[] }> = [];
  let withoutFeedback = 0;

  for (const { line, value: conversation } of input.conversations) {
    const source = `${input.logsFile}:${line}`;
    const shownId = redactor.text(conversation.conversation_id);
    const skip = (reason: string): void => {
      skipped.push({ source, conversation: shownId, reason });
    };
    const feedback = feedbackFor(conversation, feedbackById);
    feedback.forEach((item) => matched.add(item));
    if (feedback.length === 0) {
      withoutFeedback += 1;
      continue;
    }
    if (!wantsPromotion(feedback)) {
      skip('feedback is not negative (👍 only)');
      continue;
    }
    if (input.since !== undefined) {
      const end = conversationEnd(conversation);
      if (end === undefined) {
        skip('no timestamps to compare with --since');
        continue;
      }
      if (end < input.since) {
        skip(`ended ${end.toISOString().slice(0, 10)}, before --since`);
        continue;
      }
    }
    const restricted = restrictedVerticalProblem(suite.config.redaction, conversation.vertical);
    if (restricted !== undefined) {
      refusals.push({ file: input.logsFile, line, column: 1, message: `conversation ${shownId}: ${restricted}; nothing was promoted` });
      continue;
    }
    const built = promotedScenario({ conversation, feedback, agent, redactor, now: input.now });
    if ('problem' in built) {
      skip(built.problem);
      continue;
    }
    const id = built.scenario.id;
    const scenarioFile = join(scenariosDir, `${id}.yaml`);
    const recordingFile = join(recordingsDir, `${id}.jsonl`);
    const existing = [scenarioFile, recordingFile].find((path) => existsSync(path));
    if (existing !== undefined) {
      skip(`already promoted: ${shown(suite.dir, existing)} exists`);
      continue;
    }
    if (existingIds.has(id) || planned.some((item) => item.file.scenario_id === id)) {
      skip(`already promoted: the suite has a scenario "${id}"`);
      continue;
    }
    const recording = await buildPromotedRecording({ suite, scenario: built.scenario, replies: built.replies, now: input.now });
    if (!recording.ok) {
      skip(`cannot be replayed with agent "${agent}": ${recording.problem}`);
      continue;
    }
    const { metadata_only: _metadataOnly, ...written } = built.scenario;
    planned.push({
      file: {
        scenario_id: id,
        source,
        scenario_file: scenarioFile,
        recording_file: recordingFile,
        title: built.scenario.title ?? id,
        notes: built.notes,
      },
      yaml: toYamlText(written, { headerComment: built.header }),
      recording: recording.entries,
    });
  }

  if (refusals.length > 0) throw new ConfigError(refusals);

  const promoted: PromotedFile[] = [];
  for (const item of planned) {
    const outcome = writeExclusively(item.file, item.yaml, item.recording);
    if (outcome === 'written') promoted.push(item.file);
    else skipped.push({ source: item.file.source, conversation: item.file.scenario_id, reason: `already promoted: ${shown(suite.dir, outcome)} appeared meanwhile` });
  }
  const feedbackWithoutLog = new Set(input.feedback.filter((item) => !matched.has(item)).map((item) => item.conversation_id)).size;
  return { promoted, skipped, without_feedback: withoutFeedback, feedback_without_log: feedbackWithoutLog, scenarios_dir: scenariosDir };
}

function indexFeedback(feedback: readonly Feedback[]): Map<string, Feedback[]> {
  const index = new Map<string, Feedback[]>();
  for (const item of feedback) {
    for (const id of new Set([item.conversation_id, item.trace_id].filter((value): value is string => value !== undefined))) {
      const list = index.get(id) ?? [];
      list.push(item);
      index.set(id, list);
    }
  }
  return index;
}

function feedbackFor(conversation: LoggedConversation, index: Map<string, Feedback[]>): Feedback[] {
  const ids = [conversation.conversation_id, conversation.trace_id].filter((value): value is string => value !== undefined);
  return [...new Set(ids.flatMap((id) => index.get(id) ?? []))];
}

/** Recording first, then the scenario, both created exclusively; a clash removes what this call wrote. */
function writeExclusively(file: PromotedFile, yaml: string, entries: RecordingEntry[]): 'written' | string {
  mkdirSync(dirname(file.recording_file), { recursive: true });
  mkdirSync(dirname(file.scenario_file), { recursive: true });
  try {
    writeNewFileAtomically(file.recording_file, entries.map((entry) => `${JSON.stringify(entry)}\n`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return file.recording_file;
    throw error;
  }
  try {
    writeNewFileAtomically(file.scenario_file, yaml);
  } catch (error) {
    rmSync(file.recording_file, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return file.scenario_file;
    throw error;
  }
  return 'written';
}

function shown(dir: string, path: string): string {
  const relativePath = relative(dir, path);
  return relativePath.startsWith('..') ? path : relativePath;
}
