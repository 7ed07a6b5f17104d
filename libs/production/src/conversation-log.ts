import * as z from 'zod';
import { firstProblem, NOT_JSON, parseJson, type Located } from './json-lines.js';
import { logFileLines, LogIssues } from './log-lines.js';

const Timestamp = z.iso.datetime({ offset: true });

const LoggedToolCallSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
});

const LoggedTurnSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.string().default(''),
  tool_calls: z.array(LoggedToolCallSchema).optional(),
  /** For role `tool`: which tool answered (else found through `tool_call_id`). */
  tool_name: z.string().optional(),
  tool_call_id: z.string().optional(),
  timestamp: Timestamp.optional(),
  usage: z.object({ input_tokens: z.number().int().min(0), output_tokens: z.number().int().min(0) }).optional(),
});

/**
 * One line of a production conversation log (the JSON-lines files an agent's structured logging
 * writes; docs/file-formats.md, "Production logs"): a conversation with its id, tenant, vertical
 * and turns. Unknown fields are allowed and kept: a `customer: {name}` beside the turns is where
 * the redactor learns names.
 */
export const LoggedConversationSchema = z.looseObject({
  conversation_id: z.string().min(1),
  tenant: z.string().optional(),
  vertical: z.string().optional(),
  language: z.string().optional(),
  /** The Langfuse trace of the conversation, when it differs from the conversation id. */
  trace_id: z.string().optional(),
  /** The prompt version the agent answered with (what `parley canary compare` splits by). */
  prompt_version: z.string().min(1).optional(),
  turns: z.array(LoggedTurnSchema).min(1),
});
export type LoggedConversation = z.output<typeof LoggedConversationSchema>;
export type LoggedTurn = z.output<typeof LoggedTurnSchema>;

/**
 * Reads `--logs FILE` whole, every line kept, repeats too (`parley calibrate import`, which skips
 * repeats by their content digest and says so); a bad line is a ConfigError with its line.
 */
export function readConversationLog(path: string): Array<Located<LoggedConversation>> {
  return readProductionLog(path, { keepRepeats: true }).conversations;
}

/** When the conversation ended: its latest timestamp, or undefined when no turn has one. */
export function conversationEnd(conversation: LoggedConversation): Date | undefined {
  let latest: number | undefined;
  for (const turn of conversation.turns) {
    if (turn.timestamp === undefined) continue;
    const time = Date.parse(turn.timestamp);
    if (latest === undefined || time > latest) latest = time;
  }
  return latest === undefined ? undefined : new Date(latest);
}

/** Where a conversation stands against `--since`: in the window, ended before it, or without a turn timestamp to tell. */
function sinceWindow(conversation: LoggedConversation, since: Date): 'in' | 'before' | 'no_timestamp' {
  const end = conversationEnd(conversation);
  if (end === undefined) return 'no_timestamp';
  return end < since ? 'before' : 'in';
}

export interface ProductionLogOptions {
  /** Only conversations that ended at or after this; those without a turn timestamp are left out too (and counted). */
  since?: Date;
  /**
   * Which conversation ids to keep (a sample): a line whose id is not kept is only checked for
   * being JSON with a conversation_id, not validated in full, so a large log is read fast.
   */
  keep?: (conversationId: string) => boolean;
  /** Keep every line of a conversation logged more than once (else only its last line counts). */
  keepRepeats?: boolean;
}

/** A production log as every command reads it (see readProductionLog). */
export interface ProductionLog {
  /** The kept conversations in the window, one per conversation_id (its last line), in the order of the log. */
  conversations: Array<Located<LoggedConversation>>;
  /** Conversations in the file (non-blank lines). */
  total: number;
  /** Kept conversations that ended before `since`. */
  beforeWindow: number;
  /** Kept conversations left out under `since` because no turn has a timestamp. */
  withoutTimestamps: number;
  /** Lines that repeat a kept conversation_id: only the last line of an id counts. */
  duplicates: number;
}

/**
 * The one reader of production conversation logs (`parley monitor`, `promote`, `canary compare`,
 * `calibrate import`): bounded lines of a regular file, UTF-8 only (log-lines.ts); each line a
 * conversation (docs/file-formats.md, "Production logs"); `since` keeps what ended in the window
 * and leaves out conversations without turn timestamps; a conversation logged on several lines
 * (an agent that appends its conversation as it grows) counts once, as its last line. Bad lines
 * are one ConfigError with their file:line.
 */
export function readProductionLog(path: string, options: ProductionLogOptions = {}): ProductionLog {
  const issues = new LogIssues(path);
  const byId = new Map<string, Located<LoggedConversation>>();
  const repeats: Array<Located<LoggedConversation>> = [];
  let total = 0;
  let beforeWindow = 0;
  let withoutTimestamps = 0;
  let duplicates = 0;
  for (const { line, text } of logFileLines(path, 'conversation log', issues)) {
    if (text.trim() === '') continue;
    total += 1;
    const parsed = parseJson(text, line, issues);
    if (parsed === NOT_JSON) continue;
    const id = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>)['conversation_id'] : undefined;
    if (typeof id !== 'string' || id === '') {
      issues.add(line, 'not a conversation log entry: conversation_id: a non-empty string is required');
      continue;
    }
    if (options.keep !== undefined && !options.keep(id)) continue;
    const result = LoggedConversationSchema.safeParse(parsed);
    if (!result.success) {
      issues.add(line, `not a conversation log entry: ${firstProblem(result.error)}`);
      continue;
    }
    const previous = byId.get(id);
    if (previous !== undefined) {
      duplicates += 1;
      byId.delete(id);
      if (options.keepRepeats) repeats.push(previous);
    }
    byId.set(id, { line, value: result.data });
  }
  issues.throwIfAny();
  const conversations: Array<Located<LoggedConversation>> = [];
  for (const located of [...byId.values(), ...repeats].sort((left, right) => left.line - right.line)) {
    if (options.since !== undefined) {
      const window = sinceWindow(located.value, options.since);
      if (window === 'before') {
        beforeWindow += 1;
        continue;
      }
      if (window === 'no_timestamp') {
        withoutTimestamps += 1;
        continue;
      }
    }
    conversations.push(located);
  }
  return { conversations, total, beforeWindow, withoutTimestamps, duplicates };
}
