import { ConfigError, type ConfigIssue } from '@parley/core';
import * as z from 'zod';
import { parseConfigText, readTextFile, withoutByteOrderMark } from '@parley/config';
import { parseJsonLines, LoggedConversationSchema, type Located, type LoggedConversation } from '@parley/production';
import { sgdDialogues, SgdFileSchema, type SgdDialogue } from './sgd-dataset.js';

export type Dataset =
  | { format: 'sgd'; dialogues: SgdDialogue[] }
  | { format: 'production-log'; conversations: Array<Located<LoggedConversation>> };

/**
 * Reads `--from-dataset FILE` and tells its format by its shape: one JSON document holding a list
 * of dialogues (or `{dialogues: [...]}`) is SGD; JSON lines of conversations with `conversation_id`
 * and `turns` are Parley's production log (the one `parley promote` reads). Every problem is a
 * ConfigError naming file:line:column (exit 2): unreadable file, broken JSON, a wrong shape.
 */
export function readDataset(file: string): Dataset {
  const text = readTextFile(file);
  if (typeof text !== 'string') {
    throw new ConfigError({ file, ...(text.line !== undefined ? { line: text.line, column: text.column } : {}), message: `cannot read the dataset: ${text.problem}` });
  }
  const source = withoutByteOrderMark(text);
  refuseOtherFormats(source, file);
  if (isJsonLines(source)) return { format: 'production-log', conversations: readJsonLinesLog(source, file) };
  const parsed = parseConfigText(source, file, SgdFileSchema, { format: 'json' });
  if (parsed.data === undefined) {
    const hint = parsed.raw !== undefined ? ` (expected ${SUPPORTED})` : '';
    throw new ConfigError(parsed.issues.map((issue, index) => (index === 0 ? { ...issue, message: `${issue.message}${hint}` } : issue)));
  }
  return { format: 'sgd', dialogues: sgdDialogues(parsed.data) };
}

const SUPPORTED = 'SGD dialogues (a list of {dialogue_id, turns: [{speaker, utterance}]}, or {dialogues: [...]}) or a JSON-lines conversation log';

/**
 * Dialogue datasets people reach for that are not SGD, told by their shape so the error names the
 * format instead of a schema path: Taskmaster (a list of conversations with `utterances`) and
 * MultiWOZ (an object of dialogues, each with a `log` of turns).
 */
function otherDatasetFormat(raw: unknown): string | undefined {
  const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (Array.isArray(raw) && isRecord(raw[0]) && Array.isArray(raw[0]['utterances'])) return 'a Taskmaster file (conversations with "utterances")';
  if (isRecord(raw)) {
    const first = Object.values(raw)[0];
    if (isRecord(first) && Array.isArray(first['log'])) return 'a MultiWOZ file (dialogues with a "log" of turns)';
  }
  return undefined;
}

/** A whole document of a format we recognise but do not read is refused by name (exit 2). */
function refuseOtherFormats(text: string, file: string): void {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return; // JSON lines, or broken JSON: the readers below say where
  }
  const other = otherDatasetFormat(document);
  if (other !== undefined) throw new ConfigError({ file, line: 1, column: 1, message: `this is ${other}, which parley generate does not read; it reads ${SUPPORTED}` });
}

/**
 * A conversation log has one object per line, each with `conversation_id`: its first non-blank
 * line is a whole JSON object by itself. An SGD file is one document spread over many lines, or
 * one line holding a list.
 */
function isJsonLines(text: string): boolean {
  const first = text.split('\n').find((line) => line.trim() !== '');
  if (first === undefined) return false;
  try {
    const value: unknown = JSON.parse(first);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && !('dialogues' in value);
  } catch {
    return false;
  }
}

/** The log's lines; a line that is not JSON is reported with its column (where the parser stopped). */
function readJsonLinesLog(text: string, file: string): Array<Located<LoggedConversation>> {
  const issues: ConfigIssue[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const parsed = parseConfigText(line, file, z.unknown(), { format: 'json' });
    if (parsed.raw === undefined) issues.push(...parsed.issues.map((issue) => ({ ...issue, line: index + 1 })));
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return parseJsonLines(text, file, LoggedConversationSchema, 'conversation log');
}
