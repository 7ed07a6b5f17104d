import { setImmediate as nextTurn } from 'node:timers/promises';
import { DiskFullError, type CallContext, type Clock, type InterruptSignal, type CompletionRequest, type CompletionResponse, type Provider, type Random, type TokenUsage } from '@parley/core';
import type { CalibrationItem, CalibrationSet, RecordingEntry } from '@parley/config';
import {
  costOfCall,
  createLiveProvider,
  createRecorder,
  createReplayProvider,
  isProviderError,
  readRecording,
  recordingProvider,
  resilientProvider,
  writeRecording,
  type ModelPrice,
  type ResilienceSettings,
} from '@parley/providers';
import { cachedOrClaimed, databaseDiskFull, type JudgeCacheStore } from '@parley/store';
import { transcriptDigest } from '../import/transcript-digest.js';
import type { CalibrationRater, CalibrationSession, CalibrationStore, StoredJudgeRating } from '../store/calibration-store.js';
import { calibrationCacheEntry } from './judge-cache-key.js';
import { judgeAnswer } from './judge-answer.js';
import { judgeRequest } from './judge-request.js';
import type { CalibrationRaters, RaterModel } from './rater-models.js';
import type { CalibrationRubric } from './rubric-file.js';

export type JudgeMode = 'live' | 'record' | 'replay';

/** The version stored with each session. */
export const CALIBRATION_PARLEY_VERSION = '0.1.0';

export interface JudgeSessionInput {
  set: CalibrationSet;
  /** The calibration folder as the user named it, relative to the working directory: sessions are kept per folder. */
  setPath: string;
  rubric: CalibrationRubric;
  raters: CalibrationRaters;
  mode: JudgeMode;
  /** `calibration/recordings/judge.jsonl`: written in record mode, read in replay mode. */
  recordingFile: string;
  store: CalibrationStore;
  /** The judge cache (docs/file-formats.md, "Judge metrics"); used in live mode. */
  cache?: JudgeCacheStore;
  /** Ratings asked for at once (default 4). */
  concurrency?: number;
  pricing?: Record<string, ModelPrice>;
  resilience?: ResilienceSettings;
  /**
   * `--resume SESSION`: finish an interrupted session: its ratings are kept, only the items and
   * raters it has no rating for are asked, and it is marked finished when they are all done.
   */
  resume?: CalibrationSession;
}

export interface JudgeSessionDependencies {
  clock: Clock;
  random: Random;
  env: NodeJS.ProcessEnv;
  /** The live model behind a rater; default: the real SDK client with keys from `env`. */
  liveProvider?: (rater: RaterModel) => Provider;
  signal?: AbortSignal;
  onRating?: (rating: StoredJudgeRating, done: number, total: number) => void;
  /** How the person runs Parley (`parley` or `npx parley`), for the commands its messages name; `parley` when left out. */
  parleyCommand?: () => string;
}

export interface JudgeSessionResult {
  session: CalibrationSession;
  ratings: StoredJudgeRating[];
  /** Record mode: whether the recording was (re)written, and why not. */
  recording?: { file: string; written: boolean; calls: number; reason?: string };
  /** Null when some model has no known price. */
  cost_usd: number | null;
  usage: TokenUsage;
  /** The signal that stopped the session (it stays unfinished, resumable); absent when it finished. */
  interrupted_by?: InterruptSignal;
  /** Ratings the session asks for in all (items × raters) and how many it holds now. */
  progress: { rated: number; planned: number };
}

/**
 * `parley calibrate judge`: the judge and the cross-check model each rate every item of the set on
 * every axis with the rubric the reviewers read. Ratings are stored in SQLite as one session (the
 * history of agreement over months), one row per item and rater, saved as each arrives.
 *
 * Like every LLM call in Parley the calls are recorded (`record`), replayed from the recording
 * without network (`replay`), or made live through retries, timeouts and the judge cache (`live`).
 * An unusable answer is asked once more, then stored as an error with the raw output; a provider
 * failure is stored as an error too. Neither stops the session.
 */
export async function runJudgeSession(input: JudgeSessionInput, dependencies: JudgeSessionDependencies): Promise<JudgeSessionResult> {
  const { clock, random } = dependencies;
  const raters = (['judge', 'cross_check'] as const).flatMap((role) => {
    const model = input.raters[role];
    return model === undefined ? [] : [{ role, model }];
  });
  const session: CalibrationSession = input.resume ? { ...input.resume } : {
    id: sessionId(clock, random),
    set_path: input.setPath,
    started_at: clock.now().toISOString(),
    finished_at: null,
    mode: input.mode,
    rubric_version: input.rubric.version,
    rubric_sha256: input.rubric.sha256,
    raters: Object.fromEntries(raters.map(({ role, model }) => [role, { provider: model.provider, model: model.model }])),
    items: input.set.items.length,
    parley_version: CALIBRATION_PARLEY_VERSION,
    interrupted_by: null,
  };
  if (input.resume) input.store.resumeSession(session.id);
  else input.store.createSession(session);

  const replay = input.mode === 'replay' ? createReplayProvider(readRecording(input.recordingFile), input.recordingFile) : undefined;
  const liveProviders = new Map<RaterModel, Provider>();
  const liveProviderOf = (model: RaterModel): Provider => {
    let provider = liveProviders.get(model);
    if (provider === undefined) {
      const live = dependencies.liveProvider?.(model) ?? createLiveProvider(
        { kind: model.provider, ...(model.base_url !== undefined ? { baseUrl: model.base_url } : {}), ...(model.api_key_env !== undefined ? { apiKeyEnv: model.api_key_env } : {}) },
        dependencies.env,
      );
      provider = resilientProvider(live, input.resilience);
      liveProviders.set(model, provider);
    }
    return provider;
  };

  // One slot per call, filled in call order, so the recording lists items and raters in the set's
  // order whatever order the answers came back in: re-recording an unchanged set changes nothing.
  const tasks = input.set.items.flatMap((item) => raters.map((rater) => ({ item, ...rater })));
  const recordedSlots: RecordingEntry[][] = tasks.map(() => []);
  // A resumed session keeps what it rated before; only the rest is asked (and paid for).
  const ratings: StoredJudgeRating[] = input.resume ? input.store.ratings(session.id) : [];
  const kept = new Set(ratings.map((rating) => `${rating.item_id}\u0000${rating.rater}`));
  const todo = tasks.flatMap((task, index) => (kept.has(`${task.item.id}\u0000${task.role}`) ? [] : [{ task, index }]));
  // A full disk under the history stops the session as a signal would (no new call, the calls in
  // flight aborted), but it cannot be marked: it stays unfinished, and `--resume` finishes it.
  const diskFull = new AbortController();
  const signal = dependencies.signal === undefined ? diskFull.signal : AbortSignal.any([dependencies.signal, diskFull.signal]);
  let fullDisk: DiskFullError | undefined;
  const stopOnFullDisk = (error: unknown): void => {
    const full = error instanceof DiskFullError ? error : databaseDiskFull(error, input.store.path);
    if (full === undefined) throw error;
    fullDisk ??= full;
    diskFull.abort('disk full');
  };
  let failedCalls = 0;
  let done = ratings.length;

  await inParallel(todo, input.concurrency ?? 4, signal, async ({ task, index }) => {
    let provider: Provider;
    if (replay) provider = replay;
    else if (input.mode === 'record') {
      const recorder = createRecorder(clock);
      recordedSlots[index] = recorder.entries;
      provider = recordingProvider(liveProviderOf(task.model), recorder);
    } else provider = liveProviderOf(task.model);
    let rating: StoredJudgeRating;
    try {
      rating = await rateItem(task.item, task.role, task.model, provider, input, session.id, { clock, signal, ...(dependencies.parleyCommand ? { parleyCommand: dependencies.parleyCommand } : {}) });
    } catch (error) {
      stopOnFullDisk(error); // the judge cache could not take the answer
      return;
    }
    // A call the signal (or the full disk) cut short is no rating: it is asked again when the session is resumed.
    if (signal.aborted && rating.error !== null) return;
    if (rating.error !== null && !rating.error.startsWith('unusable answer')) failedCalls += 1;
    try {
      input.store.saveRating(rating);
    } catch (error) {
      stopOnFullDisk(error);
      return;
    }
    ratings.push(rating);
    done += 1;
    dependencies.onRating?.(rating, done, tasks.length);
  });

  const progress = { rated: ratings.length, planned: tasks.length };
  const stoppedByFullDisk = (full: DiskFullError): DiskFullError => {
    const dir = input.setPath === 'calibration' ? '' : ` --dir ${input.setPath}`;
    return new DiskFullError(
      full.file,
      `disk full: judge session ${session.id} stopped with ${ratings.length} of ${tasks.length} ratings kept (unfinished: calibrate report leaves it out); free some space, then finish it with: ${dependencies.parleyCommand?.() ?? 'parley'} calibrate judge${dir} --resume ${session.id}`,
    );
  };
  if (fullDisk !== undefined) throw stoppedByFullDisk(fullDisk);
  if (signal.aborted) {
    // Interrupted: unfinished (never the session a report picks by default), resumable, and the
    // recording is not written from part of the calls.
    const interruptedBy: InterruptSignal = dependencies.signal?.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
    session.interrupted_by = interruptedBy;
    input.store.interruptSession(session.id, interruptedBy);
    return { session, ratings: sortedRatings(ratings, tasks), ...totals(ratings), interrupted_by: interruptedBy, progress };
  }

  let recording: JudgeSessionResult['recording'];
  if (input.mode === 'record') {
    const entries = recordedSlots.flat();
    if (failedCalls > 0) {
      recording = { file: input.recordingFile, written: false, calls: entries.length, reason: `${failedCalls} calls failed; the old recording is kept` };
    } else if (input.resume) {
      recording = { file: input.recordingFile, written: false, calls: entries.length, reason: 'a resumed session made only part of the calls; the old recording is kept (record the set again from the start)' };
    } else {
      try {
        writeRecording(input.recordingFile, entries);
        recording = { file: input.recordingFile, written: true, calls: entries.length };
      } catch (error) {
        // Written atomically: on a full disk the old recording is kept whole; the ratings stand.
        if (!(error instanceof DiskFullError)) throw error;
        recording = { file: input.recordingFile, written: false, calls: entries.length, reason: 'disk full: the old recording is kept' };
      }
    }
  }
  session.finished_at = clock.now().toISOString();
  try {
    input.store.finishSession(session.id, session.finished_at);
  } catch (error) {
    if (!(error instanceof DiskFullError)) throw error;
    throw stoppedByFullDisk(error);
  }

  return { session, ratings: sortedRatings(ratings, tasks), ...(recording ? { recording } : {}), ...totals(ratings), progress };
}

/** The ratings in the set's order (items, then raters), whatever order the answers came back in. */
function sortedRatings(ratings: StoredJudgeRating[], tasks: ReadonlyArray<{ item: CalibrationItem; role: CalibrationRater }>): StoredJudgeRating[] {
  const order = new Map(tasks.map((task, index) => [`${task.item.id}\u0000${task.role}`, index]));
  return [...ratings].sort((left, right) => (order.get(`${left.item_id}\u0000${left.rater}`) ?? 0) - (order.get(`${right.item_id}\u0000${right.rater}`) ?? 0));
}

/** Tokens and cost of the ratings; the cost is null when some model has no known price. */
function totals(ratings: readonly StoredJudgeRating[]): Pick<JudgeSessionResult, 'usage' | 'cost_usd'> {
  const usage = ratings.reduce((sum, rating) => ({ input_tokens: sum.input_tokens + rating.input_tokens, output_tokens: sum.output_tokens + rating.output_tokens }), {
    input_tokens: 0,
    output_tokens: 0,
  });
  const costs = ratings.map((rating) => rating.cost_usd);
  const cost = costs.some((value) => value === null) ? null : costs.reduce<number>((sum, value) => sum + (value ?? 0), 0);
  return { usage, cost_usd: cost };
}

/** One rater's rating of one item, with one retry on an unusable answer. */
async function rateItem(
  item: CalibrationItem,
  rater: CalibrationRater,
  model: RaterModel,
  provider: Provider,
  input: JudgeSessionInput,
  sessionId: string,
  { clock, signal, parleyCommand }: Pick<JudgeSessionDependencies, 'clock' | 'signal' | 'parleyCommand'>,
): Promise<StoredJudgeRating> {
  const request: CompletionRequest = judgeRequest(item, input.set.axes, input.rubric, model);
  const digest = transcriptDigest(item.transcript);
  const cacheEntry = calibrationCacheEntry(item.id, digest, input.rubric, model);
  const base = {
    session_id: sessionId,
    item_id: item.id,
    rater,
    provider: model.provider,
    model: model.model,
    item_digest: digest,
    cache_key: cacheEntry.key,
  };
  const useCache = input.mode === 'live' && input.cache !== undefined;
  // A rating another process is asking for right now (a second `calibrate judge`, a run) is waited for, not paid twice.
  let release = (): void => undefined;
  if (useCache) {
    const found = await cachedOrClaimed(input.cache!, cacheEntry.key, (entry) => cachedAnswer(entry.value, input.set.axes) !== undefined);
    if ('entry' in found) {
      const hit = cachedAnswer(found.entry.value, input.set.axes)!;
      return { ...base, scores: hit.scores, reason: hit.reason, error: null, raw_output: null, cached: true, input_tokens: 0, output_tokens: 0, cost_usd: 0, latency_ms: 0 };
    }
    release = found.release;
  }
  const afresh = async (): Promise<StoredJudgeRating> => {
    const context: CallContext = { role: 'judge', scenario_id: `calibration:${item.id}`, turn: 0 };
    const usage = { input_tokens: 0, output_tokens: 0 };
    let latency = 0;
    let cost: number | null = 0;
    const spent = (response: CompletionResponse): void => {
      usage.input_tokens += response.usage.input_tokens;
      usage.output_tokens += response.usage.output_tokens;
      latency += response.latency_ms;
      const callCost = input.mode === 'replay' ? 0 : costOfCall(model.model, response.usage, input.pricing);
      cost = cost === null || callCost === null ? null : cost + callCost;
    };
    const failed = (error: string, raw: string | null): StoredJudgeRating => ({
      ...base,
      scores: null,
      reason: null,
      error,
      raw_output: raw,
      cached: false,
      ...usage,
      cost_usd: cost,
      latency_ms: latency,
    });

    let lastProblem = '';
    let lastRaw = '';
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      let response: CompletionResponse;
      try {
        response = await provider.complete(request, context, signal);
      } catch (error) {
        const message = !isProviderError(error)
          ? `call failed: ${(error as Error)?.message ?? String(error)}`
          : error.kind === 'replay_miss'
            ? `replay_miss: ${error.message}; rate it with \`${parleyCommand?.() ?? 'parley'} calibrate judge --mode live\`, or re-record every item with \`--mode record\``
            : `${error.kind}: ${error.message}`;
        return failed(message, null);
      }
      spent(response);
      const answer = judgeAnswer(response.content, input.set.axes);
      if ('scores' in answer) {
        if (useCache) {
          input.cache!.put({ ...cacheEntry, value: answer, cost_usd: cost, created_at: clock.now().toISOString() });
        }
        return { ...base, scores: answer.scores, reason: answer.reason, error: null, raw_output: null, cached: false, ...usage, cost_usd: cost, latency_ms: latency };
      }
      lastProblem = answer.problem;
      lastRaw = response.content;
    }
    return failed(`unusable answer twice: ${lastProblem}`, lastRaw);
  };
  try {
    return await afresh();
  } finally {
    release();
  }
}

function cachedAnswer(value: unknown, axes: readonly string[]): { scores: Record<string, number>; reason: string } | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const answer = judgeAnswer(JSON.stringify({ ...(value as { scores?: object }).scores, reason: (value as { reason?: unknown }).reason }), axes);
  return 'scores' in answer ? answer : undefined;
}

/** `20261126-051617-a1b2c3`: sortable by time, like run ids. */
function sessionId(clock: Clock, random: Random): string {
  const iso = clock.now().toISOString();
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}-${random.hex(6)}`;
}

async function inParallel<Task>(
  tasks: readonly Task[],
  concurrency: number,
  signal: AbortSignal | undefined,
  work: (task: Task, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      // A replayed call never waits on the network: a turn of the event loop before each task lets
      // Ctrl-C be heard, and once it is no task starts.
      await nextTurn();
      if (signal?.aborted || next >= tasks.length) return;
      const index = next++;
      await work(tasks[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, tasks.length)) }, worker));
}

