import { readFileSync, statSync } from 'node:fs';
import type { CallContext, CompletionRequest, CompletionResponse, Provider } from '@parley/core';
import { ConfigError, controlCharacterIssue, decodeUtf8, PROVIDER_KINDS } from '@parley/core';
import { MAX_NESTING_DEPTH, NESTING_MESSAGE, pathDeeperThan, RecordingEntrySchema, type RecordingEntry } from '@parley/config';
import { ProviderError } from './provider-error.js';
import { keyMaterial, requestKey } from './request-key.js';

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

/**
 * Answers every call from a recording and never touches the network. Calls match by key; repeated
 * identical requests take the recorded answers in order. A miss throws a ProviderError naming the
 * scenario, turn and role, with a short diff against the closest recorded request.
 */
export function createReplayProvider(entries: RecordingEntry[], recordingFile: string, recordCommand?: (scenarioId: string) => string): Provider {
  const queues = new Map<string, RecordingEntry[]>();
  for (const entry of entries) {
    const queue = queues.get(entry.key);
    if (queue) queue.push(entry);
    else queues.set(entry.key, [entry]);
  }
  return {
    async complete(request: CompletionRequest, context: CallContext): Promise<CompletionResponse> {
      const entry = queues.get(requestKey(request))?.shift();
      if (entry) {
        return {
          content: entry.response.content,
          tool_calls: entry.response.tool_calls,
          finish_reason: entry.response.finish_reason,
          model: entry.response.model,
          usage: entry.usage,
          latency_ms: entry.latency_ms,
          ...(entry.response.state !== undefined ? { state: entry.response.state } : {}),
        };
      }
      throw await replayMiss(request, context, entries, recordingFile, recordCommand);
    },
  };
}

async function replayMiss(
  request: CompletionRequest,
  context: CallContext,
  entries: RecordingEntry[],
  recordingFile: string,
  recordCommand: (scenarioId: string) => string = (scenarioId) => `parley run <suite> --mode record --scenario ${scenarioId}`,
): Promise<ProviderError> {
  const where = `scenario ${context.scenario_id}, turn ${context.turn}, role ${context.role}`;
  if (entries.length === 0) {
    return new ProviderError('replay_miss', `recording miss in ${where}: no recording at ${recordingFile}`, {
      context,
      details: `Record it with: ${recordCommand(context.scenario_id)}`,
    });
  }
  const { diffLines } = await import('diff');
  const current = pretty(keyMaterial(request));
  let best: { changes: ReturnType<typeof diffLines>; cost: number } | undefined;
  const candidates = entries.filter((entry) => entry.role === context.role);
  for (const entry of candidates.length ? candidates : entries) {
    const changes = diffLines(pretty(entry.request), current);
    const cost = changes.filter((change) => change.added || change.removed).reduce((sum, change) => sum + (change.count ?? 1), 0);
    if (!best || cost < best.cost) best = { changes, cost };
  }
  const diffText = renderDiff(best?.changes ?? []);
  return new ProviderError(
    'replay_miss',
    `recording miss in ${where}: no recorded call matches this request (${recordingFile} has ${entries.length} call${entries.length === 1 ? '' : 's'})`,
    {
      context,
      details: `Closest recorded request (- recorded, + now):\n${diffText}\nRe-record with: ${recordCommand(context.scenario_id)}`,
    },
  );
}

function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

const MAX_DIFF_LINES = 24;

function renderDiff(changes: Array<{ value: string; added?: boolean; removed?: boolean }>): string {
  const lines: string[] = [];
  for (const change of changes) {
    if (!change.added && !change.removed) continue;
    const sign = change.added ? '+' : '-';
    for (const line of change.value.replace(/\n$/, '').split('\n')) lines.push(`${sign} ${truncate(line.trim(), 160)}`);
  }
  const shown = lines.slice(0, MAX_DIFF_LINES);
  if (lines.length > shown.length) shown.push(`… ${lines.length - shown.length} more changed lines`);
  return shown.join('\n');
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
