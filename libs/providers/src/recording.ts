import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomically, writeFileAtomicallyAsync, type CallContext, type Clock, type CompletionRequest, type CompletionResponse, type Provider } from '@parley/core';
import type { RecordingEntry } from '@parley/config';
import { keyMaterial, requestKey } from './request-key.js';

/** Collects the calls of one scenario, in call order, for `recordings/<scenario_id>.jsonl`. */
export interface Recorder {
  readonly entries: RecordingEntry[];
  add(request: CompletionRequest, response: CompletionResponse, context: CallContext): void;
}

export function createRecorder(clock: Clock): Recorder {
  const entries: RecordingEntry[] = [];
  return {
    entries,
    add(request, response, context) {
      entries.push({
        v: 1,
        role: context.role,
        key: requestKey(request),
        turn: context.turn,
        provider: request.provider,
        model: request.model,
        request: keyMaterial(request),
        response: {
          content: response.content,
          tool_calls: response.tool_calls,
          finish_reason: response.finish_reason,
          model: response.model,
          ...(response.state !== undefined ? { state: response.state } : {}),
        },
        usage: response.usage,
        latency_ms: response.latency_ms,
        recorded_at: clock.now().toISOString(),
      });
    },
  };
}

/** Wraps a live provider so that every successful call is also recorded. */
export function recordingProvider(inner: Provider, recorder: Recorder): Provider {
  return {
    async complete(request, context, signal) {
      const response = await inner.complete(request, context, signal);
      recorder.add(request, response, context);
      return response;
    },
  };
}

export function recordingPath(recordingsDir: string, scenarioId: string): string {
  return join(recordingsDir, `${scenarioId}.jsonl`);
}

/**
 * Writes a recording atomically (every byte, fsync, check, rename; see writeFileAtomically): an
 * interrupted re-recording or a full disk never leaves a half-written cassette behind, and the
 * committed recording it would replace stays as it was.
 */
export function writeRecording(path: string, entries: RecordingEntry[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomically(
    path,
    entries.map((entry) => `${JSON.stringify(entry)}\n`),
  );
}

/**
 * `writeRecording` without holding up the event loop: the write and its fsyncs run off it (see
 * writeFileAtomicallyAsync). `madeFolders` (the caller's, for many writes) remembers the folders
 * already made, so each is made once.
 */
export async function writeRecordingAsync(path: string, entries: RecordingEntry[], madeFolders?: Set<string>): Promise<void> {
  const folder = dirname(path);
  if (!madeFolders?.has(folder)) {
    // node:fs/promises is taken here, not imported: a replay loads this module but writes no recording.
    await process.getBuiltinModule('node:fs/promises').mkdir(folder, { recursive: true });
    madeFolders?.add(folder);
  }
  await writeFileAtomicallyAsync(
    path,
    entries.map((entry) => `${JSON.stringify(entry)}\n`),
  );
}
