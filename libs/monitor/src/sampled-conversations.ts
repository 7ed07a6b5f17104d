import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { isInPercentage } from '@parley/canary';
import { ConfigError, type ConfigIssue } from '@parley/core';
import { conversationEnd, LoggedConversationSchema, type Located, type LoggedConversation } from '@parley/production';

export interface SampleOptions {
  /** Percent of conversations to sample (0–100). */
  percent: number;
  /** Salt of the hash: another salt draws an independent sample (`parley-monitor` by default, so it is not the canary's slice). */
  salt: string;
  /** Only conversations that ended at or after this time (conversations without timestamps are kept). */
  since?: Date;
}

export interface SampledConversations {
  sampled: Array<Located<LoggedConversation>>;
  /** Conversations in the file (non-blank lines). */
  total: number;
  /** Sampled conversations left out because they ended before `since`. */
  beforeWindow: number;
}

/** The default salt of monitoring samples. */
export const MONITOR_SALT = 'parley-monitor';

/**
 * Streams a JSON-lines conversation log (`parley promote`'s format) and keeps the deterministic
 * sample: a conversation is in it when `hashBucket(salt, conversation_id)` is below percent × 100,
 * so every run and every machine picks the same conversations. Lines are parsed one at a time and
 * only sampled ones are validated in full, so 100,000 conversations take seconds and little
 * memory. A line that is not JSON or has no conversation_id, and a sampled line that is not a
 * conversation, are ConfigErrors with their line (all of them at once).
 */
export async function readSampledConversations(path: string, options: SampleOptions): Promise<SampledConversations> {
  const sampled: Array<Located<LoggedConversation>> = [];
  const issues: ConfigIssue[] = [];
  let total = 0;
  let beforeWindow = 0;
  let lineNumber = 0;
  const stream = createReadStream(path, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    throw new ConfigError({ file: path, message: `cannot read the conversation log: ${(error as Error).message}` });
  }
  for await (const raw of createInterface({ input: stream, crlfDelay: Infinity })) {
    lineNumber += 1;
    const text = lineNumber === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    total += 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      issues.push({ file: path, line: lineNumber, column: 1, message: `not valid JSON: ${(error as Error).message}` });
      continue;
    }
    const id = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>)['conversation_id'] : undefined;
    if (typeof id !== 'string' || id === '') {
      issues.push({ file: path, line: lineNumber, column: 1, message: 'not a conversation log entry: conversation_id: a non-empty string is required' });
      continue;
    }
    if (!isInPercentage(options.salt, id, options.percent)) continue;
    const result = LoggedConversationSchema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : '(the line)';
      issues.push({ file: path, line: lineNumber, column: 1, message: `not a conversation log entry: ${where}: ${issue?.message ?? 'invalid'}` });
      continue;
    }
    if (options.since !== undefined) {
      const end = conversationEnd(result.data);
      if (end !== undefined && end < options.since) {
        beforeWindow += 1;
        continue;
      }
    }
    sampled.push({ line: lineNumber, value: result.data });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return { sampled, total, beforeWindow };
}
