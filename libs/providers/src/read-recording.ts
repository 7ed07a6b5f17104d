import { readFileSync, statSync } from 'node:fs';
import { ConfigError, controlCharacterIssue, decodeUtf8, PROVIDER_KINDS } from '@parley/core';
import { MAX_NESTING_DEPTH, NESTING_MESSAGE, pathDeeperThan, RecordingEntrySchema, type RecordingEntry } from '@parley/config';

/**
 * Reads `recordings/<scenario_id>.jsonl`. A missing file gives an empty list (every call then
 * misses, naming the command that records it); a damaged line is a ConfigError with its line.
 * A recording preloaded with `preloadRecording` is answered from memory.
 */
export function readRecording(path: string): RecordingEntry[] {
  const preloadedEntries = preloaded.get(path);
  if (preloadedEntries) return preloadedEntries;
  const text = readRecordingText(path);
  return text === undefined ? [] : parseRecording(text, path);
}

const preloaded = new Map<string, RecordingEntry[]>();

/**
 * Reads and parses a scenario's recording once for all who replay from it (the conversation and
 * its judges read the same file): until the returned release function is called, `readRecording`
 * answers that path from memory. A missing or unreadable file is left for `readRecording` to
 * report; a damaged one throws its ConfigError.
 */
export function preloadRecording(path: string): () => void {
  let text: string | undefined;
  try {
    text = readRecordingText(path);
  } catch {
    return () => undefined;
  }
  if (text === undefined) return () => undefined;
  preloaded.set(path, parseRecording(text, path));
  return () => preloaded.delete(path);
}

/**
 * A recording's text; undefined when there is none. Only a regular file is read: a FIFO or a
 * device would block the run forever. Bytes that are not UTF-8 and control characters are refused
 * with their line, like in every file Parley reads.
 */
function readRecordingText(path: string): string | undefined {
  let bytes: Buffer;
  try {
    if (!statSync(path).isFile()) throw new ConfigError({ file: path, message: 'the recording is not a regular file (a FIFO, device or folder?); remove it or point `recordings:` elsewhere' });
    bytes = readFileSync(path);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError({ file: path, message: `cannot read recording: ${(error as Error).message}` });
  }
  const decoded = decodeUtf8(bytes, path);
  if ('issue' in decoded) throw new ConfigError(decoded.issue);
  const control = controlCharacterIssue(decoded.text, path);
  if (control) throw new ConfigError(control);
  return decoded.text;
}

/** The column of a `JSON.parse` error of one line: V8 says "(line 1 column C)" (1 when it does not). */
function jsonErrorColumn(error: Error): number {
  const column = /\(line \d+ column (\d+)\)/.exec(error.message)?.[1];
  return column === undefined ? 1 : Number(column);
}

function parseRecording(text: string, path: string): RecordingEntry[] {
  const entries: RecordingEntry[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new ConfigError({ file: path, line: index + 1, column: jsonErrorColumn(error as Error), message: `not valid JSON: ${(error as Error).message}` });
    }
    if (pathDeeperThan(parsed, MAX_NESTING_DEPTH)) throw new ConfigError({ file: path, line: index + 1, column: 1, message: NESTING_MESSAGE });
    const checked = wellFormedEntry(parsed);
    if (checked !== undefined) {
      entries.push(checked);
      continue;
    }
    const result = RecordingEntrySchema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new ConfigError({
        file: path,
        line: index + 1,
        column: 1,
        message: `not a recording entry: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
      });
    }
    entries.push(result.data);
  }
  return entries;
}

const ROLES = new Set(['agent', 'simulator', 'judge']);
const PROVIDERS = new Set<string>([...PROVIDER_KINDS, 'service']);
const ENTRY_KEYS = new Set(['v', 'role', 'key', 'turn', 'provider', 'model', 'request', 'response', 'usage', 'latency_ms', 'recorded_at']);
const RESPONSE_KEYS = new Set(['content', 'tool_calls', 'finish_reason', 'model', 'state']);
const USAGE_KEYS = new Set(['input_tokens', 'output_tokens', 'cached_input_tokens', 'cache_write_input_tokens']);
const TOOL_CALL_KEYS = new Set(['id', 'name', 'args']);
const KEY_PATTERN = /^[0-9a-f]{64}$/;

/**
 * The entry a line holds when it is exactly what `writeRecording` writes — the common case, checked
 * by hand at a fraction of the schema's cost — else undefined, and the schema decides (and names
 * what is wrong). Only lines the schema accepts unchanged pass here (no unknown keys, which the
 * schema would drop), and the entry is built in the schema's key order, so both give equal entries.
 */
function wellFormedEntry(value: unknown): RecordingEntry | undefined {
  if (!isRecord(value) || !hasOnlyKeys(value, ENTRY_KEYS)) return undefined;
  const { v, role, key, turn, provider, model, request, response, usage, latency_ms: latency, recorded_at: recordedAt } = value;
  if (v !== 1 || typeof role !== 'string' || !ROLES.has(role) || typeof key !== 'string' || !KEY_PATTERN.test(key)) return undefined;
  if (turn !== undefined && !isCount(turn)) return undefined;
  if (typeof provider !== 'string' || !PROVIDERS.has(provider) || typeof model !== 'string' || !isRecord(request)) return undefined;
  if (typeof latency !== 'number' || !(latency >= 0) || typeof recordedAt !== 'string') return undefined;
  if (!isRecord(usage) || !hasOnlyKeys(usage, USAGE_KEYS) || !isCount(usage['input_tokens']) || !isCount(usage['output_tokens'])) return undefined;
  const { cached_input_tokens: cachedTokens, cache_write_input_tokens: cacheWriteTokens } = usage;
  if ((cachedTokens !== undefined && !isCount(cachedTokens)) || (cacheWriteTokens !== undefined && !isCount(cacheWriteTokens))) return undefined;
  if (!isRecord(response) || !hasOnlyKeys(response, RESPONSE_KEYS)) return undefined;
  const { content, tool_calls: toolCalls, finish_reason: finishReason, model: responseModel, state } = response;
  if (typeof content !== 'string' || typeof finishReason !== 'string' || typeof responseModel !== 'string') return undefined;
  if (state !== undefined && typeof state !== 'string') return undefined;
  if (!Array.isArray(toolCalls)) return undefined;
  const calls: RecordingEntry['response']['tool_calls'] = [];
  for (const call of toolCalls as unknown[]) {
    if (!isRecord(call) || !hasOnlyKeys(call, TOOL_CALL_KEYS)) return undefined;
    const { id, name, args } = call;
    if ((id !== undefined && typeof id !== 'string') || typeof name !== 'string' || !isRecord(args)) return undefined;
    calls.push({ ...(id !== undefined ? { id } : {}), name, args });
  }
  return {
    v: 1,
    role: role as RecordingEntry['role'],
    key,
    ...(turn !== undefined ? { turn: turn as number } : {}),
    provider: provider as RecordingEntry['provider'],
    model,
    request,
    response: { content, tool_calls: calls, finish_reason: finishReason, model: responseModel, ...(state !== undefined ? { state } : {}) },
    usage: {
      input_tokens: usage['input_tokens'] as number,
      output_tokens: usage['output_tokens'] as number,
      ...(cachedTokens !== undefined ? { cached_input_tokens: cachedTokens as number } : {}),
      ...(cacheWriteTokens !== undefined ? { cache_write_input_tokens: cacheWriteTokens as number } : {}),
    },
    latency_ms: latency,
    recorded_at: recordedAt,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(record: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in record) if (!allowed.has(key)) return false;
  return true;
}

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
