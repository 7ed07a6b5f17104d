import type { Clock, Provider } from '@parley/core';
import type { RecordingEntry } from '@parley/config';
import { createRecorder, createReplayProvider, requestKey, type Recorder } from '@parley/providers';

/**
 * What the attempts of one scenario under `--repeat N` share of its recording, so that N attempts
 * use one `recordings/<scenario_id>.jsonl`:
 *
 * - **record**: one recorder for all attempts; every attempt's calls are appended and the file is
 *   rewritten with all of them, so the recording holds attempt 1's calls, then attempt 2's, …
 * - **replay**: one replay for all attempts; repeated identical requests take the recorded answers
 *   in order (docs/file-formats.md §5), so attempt k gets the answers attempt k got when it was recorded. When an
 *   attempt's first request finds its answers used up (a recording of fewer attempts than N, e.g.
 *   an ordinary one-attempt recording), the replay starts over from the top, so replaying a
 *   one-attempt recording N times gives N identical attempts rather than N − 1 recording misses.
 *
 * A run without `--repeat` has no cassette and records and replays exactly as before.
 */
export interface ScenarioCassette {
  /** The recorder of a record-mode run, created on first use. */
  recorder(clock: Clock): Recorder;
  /** The replay of a replay-mode run, created on first use from `load()`. */
  replay(load: () => { entries: RecordingEntry[]; file: string; recordCommand?: (scenarioId: string) => string }): Provider;
  /** Called before each attempt: the next request is the attempt's first. */
  startAttempt(): void;
}

export function createCassette(): ScenarioCassette {
  let recorder: Recorder | undefined;
  let replay: ReplayState | undefined;
  let firstCallOfAttempt = true;
  return {
    recorder(clock) {
      return (recorder ??= createRecorder(clock));
    },
    replay(load) {
      if (replay === undefined) {
        const { entries, file, recordCommand } = load();
        replay = { entries, file, recordCommand, provider: createReplayProvider(entries, file, recordCommand), used: new Map(), recorded: countKeys(entries) };
      }
      const state = replay;
      return {
        complete(request, context, signal) {
          const key = requestKey(request);
          if (firstCallOfAttempt) {
            firstCallOfAttempt = false;
            const recorded = state.recorded.get(key) ?? 0;
            if (recorded > 0 && (state.used.get(key) ?? 0) >= recorded) {
              state.provider = createReplayProvider(state.entries, state.file, state.recordCommand);
              state.used.clear();
            }
          }
          state.used.set(key, (state.used.get(key) ?? 0) + 1);
          return state.provider.complete(request, context, signal);
        },
      };
    },
    startAttempt() {
      firstCallOfAttempt = true;
    },
  };
}

interface ReplayState {
  entries: RecordingEntry[];
  file: string;
  recordCommand: ((scenarioId: string) => string) | undefined;
  provider: Provider;
  /** Requests answered since the replay (re)started, by key. */
  used: Map<string, number>;
  /** Recorded calls by key. */
  recorded: Map<string, number>;
}

function countKeys(entries: readonly RecordingEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.key, (counts.get(entry.key) ?? 0) + 1);
  return counts;
}
