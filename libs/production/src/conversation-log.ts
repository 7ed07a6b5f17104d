import { z } from 'zod';
import { readJsonLines, type Located } from './json-lines.js';

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

/** Reads `--logs FILE`; a bad line is a ConfigError with its line. */
export function readConversationLog(path: string): Array<Located<LoggedConversation>> {
  return readJsonLines(path, LoggedConversationSchema, 'conversation log');
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
