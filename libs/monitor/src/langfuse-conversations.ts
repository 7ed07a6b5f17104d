import { isInPercentage } from '@parley/canary';
import { ConfigError } from '@parley/core';
import { LoggedConversationSchema, type Located, type LoggedConversation, type LoggedTurn } from '@parley/production';
import { LangfuseError, langfuseClient, type LangfuseClientOptions, type LangfuseTarget } from '@parley/langfuse';
import type { SampledConversations, SampleOptions } from './sampled-conversations.js';

/** A page of `GET /api/public/traces` holds at most this many traces (Langfuse's limit). */
const PAGE_LIMIT = 100;

export interface LangfuseReadOptions extends SampleOptions, LangfuseClientOptions {
  /** The window's end (now). */
  until: Date;
}

export interface LangfuseSample extends SampledConversations {
  /** Sampled traces that hold no conversation (no generation with messages, no input/output). */
  notConversations: number;
}

/** The part of a Langfuse trace the conversation is read from. */
interface TraceSummary {
  id: string;
  timestamp: string;
  sessionId?: string | null;
  metadata?: unknown;
}

interface TraceObservation {
  type?: string;
  startTime?: string;
  endTime?: string | null;
  input?: unknown;
  output?: unknown;
}

interface TraceDetail extends TraceSummary {
  input?: unknown;
  output?: unknown;
  observations?: TraceObservation[];
}

/**
 * Production conversations from Langfuse traces: lists the traces of the window
 * (`GET /api/public/traces?fromTimestamp&toTimestamp`, page by page), keeps the deterministic
 * sample by the conversation id (as for logs: `hashBucket(salt, id) < percent × 100`), and reads
 * each sampled trace with its observations (`GET /api/public/traces/{id}`). One trace is one
 * conversation, read as follows:
 * - conversation id: `metadata.conversation_id`, else the trace's session id, else the trace id;
 *   `tenant` (`metadata.tenant_id` or `metadata.tenant`), `vertical`, `language` and
 *   `prompt_version` from the metadata, whose other keys stay on the conversation (the redactor
 *   learns names from `customer_name` / `customer.name`); `trace_id` is the trace's id (scores go back onto it);
 * - turns: the messages of the trace's last generation (its input, system prompt left out) and
 *   that generation's output as the closing assistant turn; a trace without generations gives its
 *   own input as the user turn and its output as the assistant turn. The closing turn carries the
 *   generation's end time (else the trace's timestamp), which is when the conversation ended.
 */
export async function readLangfuseConversations(target: LangfuseTarget, options: LangfuseReadOptions): Promise<LangfuseSample> {
  const client = langfuseClient(target, options);
  const sampledTraces: Array<{ position: number; trace: TraceSummary }> = [];
  let total = 0;
  const window = { fromTimestamp: (options.since ?? new Date(0)).toISOString(), toTimestamp: options.until.toISOString(), orderBy: 'timestamp.asc' };
  await readable(async () => {
    for await (const page of client.pages('/api/public/traces', window, PAGE_LIMIT)) {
      for (const item of page) {
        const trace = traceSummary(item);
        if (trace === undefined) continue;
        total += 1;
        if (isInPercentage(options.salt, conversationIdOf(trace), options.percent)) sampledTraces.push({ position: total, trace });
      }
    }
  });

  const sampled: Array<Located<LoggedConversation>> = [];
  let notConversations = 0;
  for (const { position, trace } of sampledTraces) {
    const detail = (await readable(() => client.get(`/api/public/traces/${encodeURIComponent(trace.id)}`))) as TraceDetail;
    const conversation = conversationOf({ ...trace, ...detail });
    if (conversation === undefined) notConversations += 1;
    else sampled.push({ line: position, value: conversation });
  }
  return { sampled, total, beforeWindow: 0, withoutTimestamps: 0, duplicates: 0, notConversations };
}

/** Monitor cannot go on without Langfuse's answer: a failure of the client is a configuration problem (exit 2), as for logs. */
async function readable<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof LangfuseError) throw new ConfigError(error.message);
    throw error;
  }
}

function traceSummary(value: unknown): TraceSummary | undefined {
  const fields = record(value);
  if (fields === undefined || typeof fields['id'] !== 'string' || typeof fields['timestamp'] !== 'string') return undefined;
  return { id: fields['id'], timestamp: fields['timestamp'], sessionId: typeof fields['sessionId'] === 'string' ? fields['sessionId'] : null, metadata: fields['metadata'] };
}

function conversationIdOf(trace: TraceSummary): string {
  const fromMetadata = record(trace.metadata)?.['conversation_id'];
  if (typeof fromMetadata === 'string' && fromMetadata !== '') return fromMetadata;
  return trace.sessionId ?? trace.id;
}

/** The trace as a logged conversation, or undefined when it holds none. */
function conversationOf(trace: TraceDetail): LoggedConversation | undefined {
  const metadata = record(trace.metadata) ?? {};
  const generations = (trace.observations ?? []).filter((observation) => observation.type === 'GENERATION').sort((left, right) => String(left.startTime).localeCompare(String(right.startTime)));
  const last = generations.at(-1);
  const turns: LoggedTurn[] = [];
  const ended = last?.endTime ?? last?.startTime ?? trace.timestamp;
  if (last !== undefined) {
    for (const message of Array.isArray(last.input) ? last.input : []) {
      const fields = record(message);
      const role = fields?.['role'];
      if (role !== 'user' && role !== 'assistant' && role !== 'tool') continue;
      turns.push({ role, content: textOf(fields?.['content']) });
    }
    const output = textOf(record(last.output)?.['content'] ?? last.output);
    if (output !== '') turns.push({ role: 'assistant', content: output, timestamp: ended });
  } else {
    const input = textOf(trace.input);
    const output = textOf(trace.output);
    if (input !== '') turns.push({ role: 'user', content: input, timestamp: trace.timestamp });
    if (output !== '') turns.push({ role: 'assistant', content: output, timestamp: ended });
  }
  if (turns.length === 0) return undefined;
  if (turns.at(-1)!.timestamp === undefined) turns.at(-1)!.timestamp = ended;
  const text = (key: string) => (typeof metadata[key] === 'string' && metadata[key] !== '' ? { [key]: metadata[key] } : {});
  const tenant = metadata['tenant_id'] ?? metadata['tenant'];
  const parsed = LoggedConversationSchema.safeParse({
    // The rest of the metadata stays on the conversation, as extra keys of a log line do: the
    // redactor learns names from its name fields (customer_name, customer.name).
    ...metadata,
    conversation_id: conversationIdOf(trace),
    trace_id: trace.id,
    ...(typeof tenant === 'string' && tenant !== '' ? { tenant } : {}),
    ...text('vertical'),
    ...text('language'),
    ...text('prompt_version'),
    turns,
  });
  return parsed.success ? parsed.data : undefined;
}

/** Text of a message content: a string, or the text parts of a content list. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        const fields = record(part);
        return typeof fields?.['text'] === 'string' ? fields['text'] : '';
      })
      .join('');
  }
  return '';
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
