import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomically, type RunMode, type ScenarioResult } from '@parley/core';
import type { RecordingEntry } from '@parley/config';
import { readRecording, recordingPath, redactRecordingEntries, writeRecording, writeRecordingAsync } from '@parley/providers';

/**
 * Re-recordings (docs/tui.md, triage): a live or record run keeps each scenario's fresh recording beside
 * the run history, so that triage can show the new conversation against the recording and accept it.
 * In `.parley/rerecordings/<run_id>/` (the folder of `.parley/parley.db`):
 *
 * - `<scenario_id>.jsonl`: what the run recorded (agent, simulator and judge calls, exactly as
 *   record mode writes them to the suite);
 * - `replaced/<scenario_id>.jsonl`: in record mode, the suite's recording as it was before the run
 *   rewrote it (absent when there was none).
 *
 * Not in the run's `--out` folder: that one holds the reports, which CI shares, and a recording
 * holds the conversation unmasked (`metadata_only` ones too), like the suite's own cassettes and the
 * history's transcripts. The files never hold a key (keys travel in headers, which are not
 * recorded). Accepting writes the kept recording over the suite's `recordings/<scenario_id>.jsonl`
 * atomically; a replay run keeps nothing.
 */
export const RERECORDINGS_DIR = 'rerecordings';
export const REPLACED_DIR = 'replaced';

/** `.parley/rerecordings/<run_id>` for the store at `.parley/parley.db`. */
export function rerecordingsDir(storePath: string, runId: string): string {
  return join(dirname(resolve(storePath)), RERECORDINGS_DIR, runId);
}

export function keptRecordingPath(keepDir: string, scenarioId: string): string {
  return recordingPath(keepDir, scenarioId);
}

export function replacedRecordingPath(keepDir: string, scenarioId: string): string {
  return recordingPath(join(keepDir, REPLACED_DIR), scenarioId);
}

/** Writes what a live or record run recorded; see `recordingKeeper`. */
export interface RecordingKeeper {
  /**
   * Keeps a scenario's recording in the keep folder and, in record mode, rewrites the suite's. Called
   * after the conversation and again once the judge's calls are added (and per attempt under
   * `--repeat`): each call writes all entries so far. The scenario awaits it; the write and its
   * fsyncs run off the event loop, so the run's other conversations go on meanwhile.
   */
  save(scenarioId: string, entries: readonly RecordingEntry[]): Promise<void>;
}

export interface RecordingKeeperOptions {
  mode: Exclude<RunMode, 'replay'>;
  /** The suite's recordings folder. */
  recordingsDir: string;
  /** The run's rerecordings folder (see `rerecordingsDir`). */
  keepDir: string;
  /**
   * `--resume`: the interrupted run may already have replaced a scenario's recording; the copy it
   * took of the original is then kept, not overwritten with the half-done re-recording.
   */
  resumed?: boolean;
  /** The suite's secrets redactor (keys, tokens): every string of every recording written goes through it. */
  secrets?: (text: string) => string;
}

/**
 * The recording writer of a live or record run. In record mode the first save of a scenario first
 * copies the suite's recording to `replaced/`, so triage can still show what it was. A keep folder
 * that is the suite's recordings folder itself keeps nothing extra: the copy would be the suite's
 * own file.
 */
export function recordingKeeper(options: RecordingKeeperOptions): RecordingKeeper {
  const started = new Set<string>();
  // The folders made for this run's recordings: each is made once, not again per save.
  const madeFolders = new Set<string>();
  return {
    async save(scenarioId, entries) {
      const suiteFile = recordingPath(options.recordingsDir, scenarioId);
      const kept = keptRecordingPath(options.keepDir, scenarioId);
      const keep = resolve(kept) !== resolve(suiteFile);
      if (keep && !started.has(scenarioId)) {
        started.add(scenarioId);
        if (options.mode === 'record') keepReplaced(suiteFile, kept, replacedRecordingPath(options.keepDir, scenarioId), options.resumed ?? false);
      }
      // Recordings are committed and shared: they pass through the suite's secrets redactor too.
      const list = options.secrets ? redactRecordingEntries(entries, options.secrets) : [...entries];
      if (options.mode === 'record') await writeRecordingAsync(suiteFile, list, madeFolders);
      if (keep) await writeRecordingAsync(kept, list, madeFolders);
    },
  };
}

function keepReplaced(suiteFile: string, kept: string, replaced: string, resumed: boolean): void {
  // After an interruption the suite's file may already be this run's half-done re-recording.
  if (resumed && (existsSync(replaced) || existsSync(kept))) return;
  if (!existsSync(suiteFile)) {
    rmSync(replaced, { force: true }); // not this run's: there was no recording to replace
    return;
  }
  mkdirSync(dirname(replaced), { recursive: true });
  writeFileAtomically(replaced, readFileSync(suiteFile, 'utf8'));
}

/** A scenario's re-recording as triage shows it. */
export interface Rerecording {
  scenarioId: string;
  /** The run's recording of the scenario: what accepting writes. */
  keptFile: string;
  kept: RecordingEntry[];
  /** The suite's `recordings/<scenario_id>.jsonl`. */
  recordingFile: string;
  /**
   * What the new conversation is compared with: the recording the run replaced (record mode),
   * else the suite's recording as it is now; empty when there was none.
   */
  recorded: RecordingEntry[];
  /** True when the suite's recording is already exactly the kept one (accepted, or written by record mode). */
  accepted: boolean;
}

export interface RerecordingLocation {
  /** The mode of the run (a replay run keeps no recording). */
  mode: RunMode;
  /** The run's rerecordings folder (see `rerecordingsDir`). */
  keepDir: string;
  recordingsDir: string;
  scenarioId: string;
}

/**
 * The re-recording a live or record run kept of a scenario; undefined when it kept none (a replay
 * run, a run from before Parley kept them, a scenario that ended in an error). A damaged file is a
 * ConfigError with its line.
 */
export function loadRerecording(location: RerecordingLocation): Rerecording | undefined {
  if (location.mode === 'replay') return undefined;
  const keptFile = keptRecordingPath(location.keepDir, location.scenarioId);
  if (!existsSync(keptFile)) return undefined;
  const kept = readRecording(keptFile);
  const recordingFile = recordingPath(location.recordingsDir, location.scenarioId);
  const current = readRecording(recordingFile);
  const recorded = location.mode === 'record' ? readRecording(replacedRecordingPath(location.keepDir, location.scenarioId)) : current;
  return { scenarioId: location.scenarioId, keptFile, kept, recordingFile, recorded, accepted: sameEntries(kept, current) };
}

function sameEntries(left: readonly RecordingEntry[], right: readonly RecordingEntry[]): boolean {
  return left.length === right.length && JSON.stringify(left) === JSON.stringify(right);
}

export type AcceptOutcome = { accepted: true; file: string; unchanged: boolean } | { accepted: false; reason: string };

/**
 * Accepts a re-recording: writes the kept recording atomically as the suite's recording (git then
 * shows the change for review, like a snapshot). Refused when the kept recording would not replay
 * the scenario: judge verdicts the run took from the cache or replayed were not called, so their
 * calls are missing from it.
 */
export function acceptRerecording(
  rerecording: Rerecording,
  run: { result: Pick<ScenarioResult, 'scenario_id' | 'metrics'>; judgeMode?: string },
): AcceptOutcome {
  const gap = rerecordingGap(run.result, run.judgeMode);
  if (gap !== undefined) {
    const rerecord = `re-record it with: parley run --mode record --scenario ${run.result.scenario_id}`;
    return { accepted: false, reason: `${gap}, so the judge calls are not in the run's recording; ${rerecord}` };
  }
  if (rerecording.accepted) return { accepted: true, file: rerecording.recordingFile, unchanged: true };
  writeRecording(rerecording.recordingFile, rerecording.kept);
  return { accepted: true, file: rerecording.recordingFile, unchanged: false };
}

/**
 * Why a run's kept recording of a scenario lacks calls a replay needs, in a few words, if it does:
 * `conversation_judge came from the judge cache`, `the run replayed its judges`.
 */
export function rerecordingGap(result: Pick<ScenarioResult, 'metrics'>, judgeMode: string | undefined): string | undefined {
  if (judgeMode === 'replay') return 'the run replayed its judges';
  const cached = result.metrics.filter((metric) => metric.details?.['cached'] === true).map((metric) => metric.metric);
  if (cached.length > 0) return `${[...new Set(cached)].join(', ')} came from the judge cache`;
  return undefined;
}
