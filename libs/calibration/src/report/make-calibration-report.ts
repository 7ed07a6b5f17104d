import type { CalibrationSet } from '@parley/config';
import { ConfigError } from '@parley/core';
import { hasRecording, loadCalibrationFolder, type CalibrationFolder } from '../calibration-folder.js';
import type { JudgeSessionDependencies, JudgeSessionResult } from '../judge/run-judge-session.js';
import type { CalibrationRaters } from '../judge/rater-models.js';
import type { CalibrationStore, StoredJudgeRating } from '../store/calibration-store.js';
import { buildCalibrationReport, type CalibrationGateSettings, type CalibrationReport, type SessionSelection } from './calibration-report.js';
import { calibrationReportMarkdown } from './report-markdown.js';
import { writeReportFiles } from './write-report-files.js';

export interface MakeReportOptions {
  gate: CalibrationGateSettings;
  bootstrap: { seed: number; resamples: number };
  /** A session id or prefix; default the folder's latest finished session. */
  sessionId?: string;
  /** The raters to replay with when no session exists yet. */
  raters: CalibrationRaters;
  /** How the person runs Parley (`parley` or `npx parley`), for the commands its errors name; `parley` when left out. */
  parley?: string;
}

export interface MadeReport {
  report: CalibrationReport;
  markdown: string;
  files: { markdown: string; json: string };
  /**
   * The set and the session's model ratings the report was made from, for a caller that lists the
   * pairs behind the report (the calibration page): reading the set's YAML and the ratings again
   * took longer than the statistics on a 1,000-item set.
   */
  set: CalibrationSet;
  ratings: readonly StoredJudgeRating[];
  /** Set when there was no session yet and the recorded judge calls were replayed into one. */
  replayed?: JudgeSessionResult;
}

/**
 * `parley calibrate report`: the report of the folder's latest judge session (or `--session`),
 * with the trend over its earlier ones, written to `reports/<date>.md` and `.json`. On a fresh
 * clone the store has no session yet; the committed recording of the judge calls is then replayed
 * (offline, no key, no cost) into one first, so the report works out of the box.
 */
export async function makeCalibrationReport(
  folder: CalibrationFolder,
  store: CalibrationStore,
  options: MakeReportOptions,
  dependencies: JudgeSessionDependencies,
): Promise<MadeReport> {
  const { set, rubric } = loadCalibrationFolder(folder);
  // A killed `calibrate judge` leaves an unfinished session: it rated part of the set, so it is
  // reported only when asked for by id, and never gates by default.
  const sessions = options.sessionId === undefined ? store.sessions(folder.shown, 100) : [];
  const latestFinished = sessions.find((candidate) => candidate.finished_at !== null);
  const newerUnfinished = sessions
    .filter((candidate) => candidate.finished_at === null && (latestFinished === undefined || candidate.started_at >= latestFinished.started_at))
    .map((candidate) => candidate.id);
  let session = options.sessionId !== undefined ? store.session(options.sessionId) : latestFinished;
  if (options.sessionId !== undefined && session === undefined) throw new ConfigError(`no calibration session "${options.sessionId}" in ${store.path}`);
  let selection: SessionSelection = { by: options.sessionId !== undefined ? 'session_flag' : 'latest_finished', unfinished_left_out: newerUnfinished };
  let replayed: JudgeSessionResult | undefined;
  if (session === undefined) {
    if (!hasRecording(folder)) {
      const parley = options.parley ?? 'parley';
      const unfinished =
        newerUnfinished.length > 0
          ? `no finished judge session for ${folder.shown}: ${newerUnfinished.join(', ')} ${newerUnfinished.length === 1 ? 'was' : 'were'} stopped before the end; run \`${parley} calibrate judge --dir ${folder.shown}\` again, or report one with --session ID`
          : undefined;
      // With nothing in the set the judge has nothing to rate either: the first step is an import.
      const first =
        set.items.length === 0
          ? `no judge ratings for ${folder.shown} yet, and the set has no items: add some with \`${parley} calibrate import FILE --dir ${folder.shown}\`, then run \`${parley} calibrate judge --dir ${folder.shown}\``
          : `no judge ratings for ${folder.shown} yet: run \`${parley} calibrate judge --dir ${folder.shown}\` first`;
      throw new ConfigError(unfinished ?? first);
    }
    // Loaded only here: the judge session reaches the providers and the recordings, which a
    // report of a stored session does not need.
    const { runJudgeSession } = await import('../judge/run-judge-session.js');
    replayed = await runJudgeSession(
      { set, setPath: folder.shown, rubric, raters: options.raters, mode: 'replay', recordingFile: folder.recordingFile, store },
      dependencies,
    );
    session = replayed.session;
    selection = { ...selection, by: 'replayed_recording' };
  }
  const ratings = replayed?.ratings ?? store.ratings(session.id);
  const history = store
    .sessions(session.set_path, 100)
    .filter((earlier) => earlier.started_at <= session!.started_at && (earlier.finished_at !== null || earlier.id === session!.id))
    .slice(0, 14)
    .map((earlier) => ({ session: earlier, ratings: earlier.id === session!.id ? ratings : store.ratings(earlier.id) }));
  const report = buildCalibrationReport({
    set,
    setPath: folder.shown,
    rubric,
    session,
    ratings,
    history,
    selection,
    gate: options.gate,
    bootstrap: options.bootstrap,
    now: dependencies.clock.now(),
    ...(options.parley !== undefined ? { parley: options.parley } : {}),
  });
  const markdown = calibrationReportMarkdown(report);
  const files = writeReportFiles(folder.reportsDir, report, markdown);
  return { report, markdown, files, set, ratings, ...(replayed ? { replayed } : {}) };
}
