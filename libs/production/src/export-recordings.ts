import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { ConfigError, DiskFullError, isDiskFull, writeNewFileAtomically, type ChatMessage, type ConfigIssue } from '@parley/core';
import type { LoadedSuite, RecordingEntry } from '@parley/config';
import { readRecording } from '@parley/providers';
import { restrictedVerticalProblem, type Redactor } from '@parley/redaction';
import { WITHHELD } from '@parley/reports';

export interface ExportRecordingsInput {
  /** The suite, loaded with the scenarios to export (a `--scenario` selection or all). */
  suite: LoadedSuite;
  redactor: Redactor;
  /** An absolute folder; files in it are never overwritten. */
  outDir: string;
}

interface ExportedRecording {
  scenario_id: string;
  file: string;
  calls: number;
  /** metadata_only: only roles, models, usage and latencies were exported. */
  withheld: boolean;
}

export interface ExportRecordingsResult {
  exported: ExportedRecording[];
  /** Scenarios without a recording to export. */
  without_recording: string[];
}

/**
 * Recordings made safe to share (a bug report, another team): every request and response goes
 * through the redactor — messages and system prompt as text, tool results structurally, tool
 * arguments as their sha256 — and a `metadata_only` scenario keeps only roles, models, keys,
 * usage and latencies. A scenario of a restricted vertical without redaction extras, or an
 * existing file in the target folder, stops the export before anything is written.
 *
 * The keys stay as recorded, so an exported call can still be matched with its original; the
 * exported files are for reading, not for replay (the masked requests no longer hash to them).
 */
export function exportRecordings(input: ExportRecordingsInput): ExportRecordingsResult {
  const { suite, redactor, outDir } = input;
  const refusals: ConfigIssue[] = [];
  for (const scenario of suite.scenarios) {
    const problem = restrictedVerticalProblem(suite.config.redaction, scenario.data.vertical);
    if (problem !== undefined) refusals.push({ file: scenario.file, message: `${problem}; nothing was exported` });
  }
  if (refusals.length > 0) throw new ConfigError(refusals);

  const recordingsDir = isAbsolute(suite.config.recordings) ? suite.config.recordings : join(suite.dir, suite.config.recordings);
  const planned: Array<{ scenario_id: string; file: string; entries: RecordingEntry[]; withheld: boolean }> = [];
  const withoutRecording: string[] = [];
  for (const scenario of suite.scenarios) {
    const entries = readRecording(join(recordingsDir, `${scenario.data.id}.jsonl`));
    if (entries.length === 0) {
      withoutRecording.push(scenario.data.id);
      continue;
    }
    const withheld = scenario.data.metadata_only;
    planned.push({
      scenario_id: scenario.data.id,
      file: join(outDir, `${scenario.data.id}.jsonl`),
      entries: withheld ? entries.map(withholdEntry) : redactEntries(entries, redactor),
      withheld,
    });
  }
  const clashes = planned.filter((item) => existsSync(item.file));
  if (clashes.length > 0) {
    throw new ConfigError(clashes.map((item) => ({ file: item.file, message: 'exists already: exports never overwrite a file; choose another --out' })));
  }

  writeAllOrNone(outDir, planned.map((item) => ({ file: item.file, text: item.entries.map((entry) => `${JSON.stringify(entry)}\n`).join('') })));
  return {
    exported: planned.map((item) => ({ scenario_id: item.scenario_id, file: item.file, calls: item.entries.length, withheld: item.withheld })),
    without_recording: withoutRecording,
  };
}

/**
 * Writes every file, each whole (never an empty or cut one), or none: when one fails (a full
 * disk: a {@link DiskFullError}, "disk full: nothing was changed") the files written before it
 * are removed again, and the folder too when this export created it.
 */
function writeAllOrNone(outDir: string, files: ReadonlyArray<{ file: string; text: string }>): void {
  let created: string | undefined;
  const written: string[] = [];
  try {
    created = mkdirSync(outDir, { recursive: true });
    for (const { file, text } of files) {
      writeNewFileAtomically(file, text);
      written.push(file);
    }
  } catch (error) {
    for (const file of written) rmSync(file, { force: true });
    if (created !== undefined) rmSync(created, { recursive: true, force: true });
    if (isDiskFull(error)) throw new DiskFullError(outDir);
    throw error;
  }
}

/**
 * The calls of one recording, redacted. Names found in any call's tool arguments or results, or
 * introduced in any message, are masked in every call of the recording, as for a transcript.
 */
function redactEntries(entries: readonly RecordingEntry[], redactor: Redactor): RecordingEntry[] {
  const learned = entries.flatMap((entry) => [
    ...entry.response.tool_calls.flatMap((call) => redactor.namesIn(call.args)),
    ...redactor.namesIn(entry.response.content),
    ...messagesOf(entry).flatMap((message) => [
      // Every message's content: tool results' name fields, and names a message introduces.
      ...redactor.namesIn(message.content),
      ...(message.role === 'assistant' ? (message.tool_calls ?? []).flatMap((call) => redactor.namesIn(call.args)) : []),
    ]),
  ]);
  const scoped = redactor.withNames(learned);
  return entries.map((entry) => redactEntry(entry, scoped));
}

function redactEntry(entry: RecordingEntry, redactor: Redactor): RecordingEntry {
  const request: Record<string, unknown> = { ...entry.request };
  if (typeof request['system'] === 'string') request['system'] = redactor.text(request['system']);
  const messages = request['messages'];
  if (Array.isArray(messages)) {
    request['messages'] = messages.map((message: unknown) => (isChatMessage(message) ? redactMessage(message, redactor) : redactor.value(message)));
  }
  return {
    ...entry,
    request,
    response: {
      ...entry.response,
      content: redactor.text(entry.response.content),
      tool_calls: entry.response.tool_calls.map((call) => redactor.toolCall({ ...(call.id !== undefined ? { id: call.id } : {}), name: call.name, args: call.args })),
      ...(entry.response.state !== undefined ? { state: redactor.text(entry.response.state) } : {}),
    },
  };
}

function redactMessage(message: ChatMessage, redactor: Redactor): ChatMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: redactor.text(message.content) };
    case 'assistant':
      return {
        role: 'assistant',
        content: redactor.text(message.content),
        ...(message.tool_calls !== undefined ? { tool_calls: message.tool_calls.map(redactor.toolCall) } : {}),
      };
    case 'tool':
      return { ...message, content: redactor.turn({ role: 'tool', turn: 0, content: message.content }).content };
  }
}

/** A recorded request's messages, when they have the provider-neutral shape Parley records. */
function messagesOf(entry: RecordingEntry): ChatMessage[] {
  const messages = entry.request['messages'];
  return Array.isArray(messages) ? messages.filter(isChatMessage) : [];
}

function isChatMessage(message: unknown): message is ChatMessage {
  if (message === null || typeof message !== 'object') return false;
  const role: unknown = Reflect.get(message, 'role');
  const content: unknown = Reflect.get(message, 'content');
  return (role === 'user' || role === 'assistant' || role === 'tool') && typeof content === 'string';
}

function withholdEntry(entry: RecordingEntry): RecordingEntry {
  return {
    v: entry.v,
    role: entry.role,
    key: entry.key,
    ...(entry.turn !== undefined ? { turn: entry.turn } : {}),
    provider: entry.provider,
    model: entry.model,
    request: { withheld: WITHHELD },
    response: { content: WITHHELD, tool_calls: [], finish_reason: entry.response.finish_reason, model: entry.response.model },
    usage: entry.usage,
    latency_ms: entry.latency_ms,
    recorded_at: entry.recorded_at,
  };
}
