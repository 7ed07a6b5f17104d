import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CallContext, Clock, CompletionRequest, CompletionResponse, Provider } from '@parley/core';
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
 * Writes a recording atomically (temp file, fsync, rename): an interrupted re-recording never
 * leaves a half-written cassette behind.
 */
export function writeRecording(path: string, entries: RecordingEntry[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  const descriptor = openSync(temporary, 'w');
  try {
    writeSync(descriptor, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  renameSync(temporary, path);
}
