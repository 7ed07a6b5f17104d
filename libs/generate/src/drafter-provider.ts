import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex, type Clock, type Provider } from '@parley/core';
import type { ModelRef } from '@parley/config';
import {
  createLiveProvider,
  createRecorder,
  createReplayProvider,
  readRecording,
  recordingProvider,
  resilientProvider,
  writeRecording,
  type Recorder,
  type ResilienceSettings,
} from '@parley/providers';

export type GenerateMode = 'replay' | 'live' | 'record';

/**
 * Where the calls of one `parley generate --from` are recorded: `<recordings>/generate/<slug>.jsonl`,
 * named by the description's first words and a hash of everything the request depends on (so a
 * second description gets its own recording, and the same command finds its recording again).
 */
export function generationRecordingPath(
  recordingsDir: string,
  inputs: { description: string; count: number; language?: string; agent: string; model: string },
): string {
  const words = inputs.description
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '')
    .slice(0, 5)
    .join('-');
  const hash = sha256Hex(JSON.stringify([inputs.description.trim(), inputs.count, inputs.language ?? null, inputs.agent, inputs.model])).slice(0, 8);
  return join(recordingsDir, 'generate', `${words === '' ? 'drafts' : words}-${hash}.jsonl`);
}

/** Replay when the recording exists, live otherwise (as `parley run` decides by its recordings). */
export function defaultGenerateMode(recordingFile: string): GenerateMode {
  return existsSync(recordingFile) ? 'replay' : 'live';
}

export interface DrafterProvider {
  provider: Provider;
  /** Record mode: writes the recording (only when every call succeeded); returns whether it did. */
  finish(succeeded: boolean): { written: boolean; calls: number } | undefined;
}

/**
 * The model behind `generate`, like every LLM call: `replay` answers from the recording and never
 * opens a connection (a miss names the command that records it), `live` calls the model through
 * retries and timeouts, `record` does the same and rewrites the recording atomically at the end.
 */
export function drafterProvider(input: {
  mode: GenerateMode;
  recordingFile: string;
  /** Shown in a replay miss. */
  recordCommand: string;
  model: ModelRef;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  resilience?: ResilienceSettings;
}): DrafterProvider {
  if (input.mode === 'replay') {
    return {
      provider: createReplayProvider(readRecording(input.recordingFile), input.recordingFile, () => input.recordCommand),
      finish: () => undefined,
    };
  }
  const live = resilientProvider(
    createLiveProvider(
      {
        kind: input.model.provider,
        ...(input.model.base_url !== undefined ? { baseUrl: input.model.base_url } : {}),
        ...(input.model.api_key_env !== undefined ? { apiKeyEnv: input.model.api_key_env } : {}),
      },
      input.env,
    ),
    input.resilience,
  );
  if (input.mode === 'live') return { provider: live, finish: () => undefined };
  const recorder: Recorder = createRecorder(input.clock);
  return {
    provider: recordingProvider(live, recorder),
    finish(succeeded) {
      if (!succeeded) return { written: false, calls: recorder.entries.length };
      writeRecording(input.recordingFile, recorder.entries);
      return { written: true, calls: recorder.entries.length };
    },
  };
}
