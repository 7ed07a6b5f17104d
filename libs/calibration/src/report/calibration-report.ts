import type { CalibrationItem, CalibrationSet } from '@parley/config';
import type { CalibrationRubric } from '../judge/rubric-file.js';
import { Z_95 } from '../statistics/analytic-kappa-interval.js';
import { bootstrapKappaTables } from '../statistics/bootstrap-kappa-interval.js';
import { KAPPA_WEIGHTINGS } from '../statistics/kappa-weights.js';
import { cohenKappa } from '../statistics/cohen-kappa.js';
import { confusionMatrix } from '../statistics/confusion-matrix.js';
import { krippendorffAlphas } from '../statistics/krippendorff-alpha.js';
import { meanSignedDifference } from '../statistics/mean-signed-difference.js';
import { RATING_LABELS, type RatingPair } from '../statistics/rating-labels.js';
import type { CalibrationRater, CalibrationSession, RaterModelRecord, StoredJudgeRating } from '../store/calibration-store.js';
import { agreementSummary, type AgreementSummary, type Measured } from './agreement-summary.js';
import { itemDigests } from './item-digests.js';
import { COMPARISONS, comparisonTables, OVERALL, pooledPairs, type ComparisonId, type PairsByItem, type RatingsByRater, type ScoresByItem } from './comparison-pairs.js';

export const CALIBRATION_REPORT_SCHEMA_VERSION = 1;

export interface CalibrationGateSettings {
  /** `--min-kappa`: every axis's judge-vs-human quadratic kappa must reach it (default 0.7). */
  minKappa: number;
  /** `--max-bias`: every axis's |judge − human| mean may be at most this (default 0.5 points). */
  maxBias: number;
}

export interface CalibrationReportInput {
  set: CalibrationSet;
  setPath: string;
  rubric: CalibrationRubric;
  session: CalibrationSession;
  ratings: readonly StoredJudgeRating[];
  /** Earlier sessions of the same set with their ratings, for the trend (newest first). */
  history: ReadonlyArray<{ session: CalibrationSession; ratings: readonly StoredJudgeRating[] }>;
  /** How the session was chosen, and the newer unfinished sessions left out; said in the report's header. */
  selection?: SessionSelection;
  gate: CalibrationGateSettings;
  bootstrap: { seed: number; resamples: number };
  now: Date;
  /** How the person runs Parley (`npx parley`), for the commands warnings name; `parley` when not given. */
  parley?: string;
}

/**
 * Which judge session a report is of: the latest finished one by default, the one `--session`
 * named, or one just replayed from the committed recording. Sessions a killed `calibrate judge`
 * left unfinished are never chosen by default (they gate on part of the set) and never in the trend.
 */
export interface SessionSelection {
  by: 'latest_finished' | 'session_flag' | 'replayed_recording';
  /** Ids of unfinished sessions newer than the one reported, left out. */
  unfinished_left_out: string[];
}

/**
 * Why the report is of this session, for its header: `the latest finished session (left out 1
 * unfinished session: 20261126-…; report it with --session ID)`. A report written before reports
 * recorded the choice (no `selected_by`) says so instead of guessing.
 */
export function describeSessionChoice(session: {
  finished_at?: string | null | undefined;
  selected_by?: SessionSelection['by'] | undefined;
  unfinished_left_out?: readonly string[] | undefined;
}): string {
  const leftOut = session.unfinished_left_out ?? [];
  const skipped =
    leftOut.length === 0
      ? ''
      : ` (left out ${leftOut.length} newer unfinished ${leftOut.length === 1 ? 'session' : 'sessions'}: ${leftOut.join(', ')}; report one with --session ID)`;
  const unfinished = session.finished_at === null ? ', UNFINISHED: it rated only part of the set' : '';
  switch (session.selected_by) {
    case 'latest_finished':
      return `the latest finished session${skipped}`;
    case 'session_flag':
      return `chosen with --session${unfinished}`;
    case 'replayed_recording':
      return `replayed from the committed recording${skipped}`;
    case undefined:
      return `how it was chosen is not recorded (a report from before reports said so)${unfinished}`;
  }
}

export interface AxisAgreement extends AgreementSummary {
  axis: string;
}

export interface ComparisonReport {
  id: ComparisonId;
  label: string;
  axes: AxisAgreement[];
}

export interface GateAxis {
  axis: string;
  kappa_quadratic: Measured;
  bias: Measured;
  passed: boolean;
  problems: string[];
}

export interface TrendEntry {
  session_id: string;
  started_at: string;
  mode: string;
  judge: RaterModelRecord | null;
  rubric_version: string;
  /** Items the session's judge rated that people rated too. */
  items: number;
  kappa_quadratic: Record<string, Measured>;
  bias: Record<string, Measured>;
}

/** `calibration/reports/<date>.json`; `null` stands for undefined (0/0 or nothing to compare). */
export interface CalibrationReport {
  schema_version: typeof CALIBRATION_REPORT_SCHEMA_VERSION;
  generated_at: string;
  set: {
    path: string;
    owner: string;
    rubric_version: string;
    axes: string[];
    items: number;
    /** Items with at least one human rating under the session's rubric version. */
    rated_items: number;
    /** Items rated, per reviewer. */
    reviewers: Record<string, number>;
  };
  session: {
    id: string;
    started_at: string;
    finished_at: string | null;
    mode: string;
    rubric_version: string;
    judge: RaterModelRecord | null;
    cross_check: RaterModelRecord | null;
    /** Items each model gave usable ratings for. */
    rated: Record<CalibrationRater, number>;
    errors: Array<{ item_id: string; rater: CalibrationRater; error: string }>;
    /**
     * How this session was chosen (see {@link SessionSelection}). Every report written now has
     * both; a stored report from before they existed (calibration/reports/2026-11-26.json) has
     * neither, and its readers show the choice as not recorded.
     */
    selected_by?: SessionSelection['by'];
    unfinished_left_out?: string[];
  };
  method: {
    labels: number[];
    gate_kappa: 'quadratic';
    interval_level: number;
    z: number;
    bootstrap: { seed: number; resamples: number; unit: 'item' };
    analytic_interval: string;
    alpha: string;
    pairing: string;
  };
  gate: { min_kappa: number; max_bias: number; passed: boolean; axes: GateAxis[] };
  comparisons: ComparisonReport[];
  alpha_all_raters: Array<{ axis: string; raters: string[]; ordinal: Measured; interval: Measured }>;
  trend: TrendEntry[];
  warnings: string[];
}

/**
 * The calibration report (docs/calibration.md, "The report"): for each axis and overall, judge vs
 * human, cross-check vs human, judge vs cross-check and human vs human, with every agreement
 * statistic; Krippendorff's alpha over all raters; the gate (judge-vs-human quadratic kappa and
 * bias per axis); and the trend against earlier sessions. Pure: the same input gives the same
 * report.
 *
 * Only human ratings given under the session's rubric version count (the judge was given that
 * rubric); only model ratings of the text as it is now count (an item edited since is stale).
 */
export function buildCalibrationReport(input: CalibrationReportInput): CalibrationReport {
  const { set, session } = input;
  const axes = set.axes;
  const warnings: string[] = [];

  const humanItems = withHumanRatingsOf(set.items, session.rubric_version);
  const setAside = set.items.reduce((sum, item, index) => sum + item.ratings.length - humanItems[index]!.ratings.length, 0);
  if (setAside > 0) warnings.push(`${setAside} human ratings were given under another rubric version than ${session.rubric_version} and are left out`);
  if (input.rubric.sha256 !== session.rubric_sha256) {
    warnings.push(`rubric.md changed since session ${session.id} was judged: run \`${input.parley ?? 'parley'} calibrate judge --dir ${input.setPath}\` again`);
  }

  const digests = itemDigests(set);
  const usable = usableModelRatings(digests, input.ratings);
  if (usable.stale.length > 0) warnings.push(`${usable.stale.length} model ratings are of text that changed since (${preview(usable.stale)}): not counted`);
  const missing = (rater: CalibrationRater): string[] =>
    session.raters[rater] === undefined ? [] : set.items.filter((item) => !usable.byRater[rater].has(item.id)).map((item) => item.id);
  for (const rater of ['judge', 'cross_check'] as const) {
    const ids = missing(rater);
    if (ids.length > 0) warnings.push(`${ids.length} items have no usable ${rater === 'judge' ? 'judge' : 'cross-check'} rating in session ${session.id} (${preview(ids)})`);
  }

  const ratings: RatingsByRater = { items: humanItems, judge: usable.byRater.judge, crossCheck: usable.byRater.cross_check };
  const tables = comparisonTables(ratings, axes);
  // One bootstrap for every row: each resample draws the items once for all the axis tables, and
  // each comparison's overall table is the sum of its axis tables.
  const axisTables = COMPARISONS.flatMap(({ id }) => tables[id]);
  const overallOf = COMPARISONS.map((_, comparison) => axes.map((_axis, axis) => comparison * axes.length + axis));
  const intervals = bootstrapKappaTables(axisTables, KAPPA_WEIGHTINGS, input.bootstrap, overallOf);
  const comparisons: ComparisonReport[] = COMPARISONS.map(({ id, label }, comparison) => ({
    id,
    label,
    axes: [
      ...axes.map((axis, index) => ({ axis, ...agreementSummary(tables[id][index]!, intervals[comparison * axes.length + index]!) })),
      { axis: OVERALL, ...agreementSummary(pooledPairs(tables[id]), intervals[axisTables.length + comparison]!) },
    ],
  }));
  if (comparisons[0]!.axes.every((row) => row.n === 0)) warnings.push('no item has both a human and a judge rating: nothing to gate on');

  const judgeVsHuman = comparisons.find((comparison) => comparison.id === 'judge_vs_human')!;
  const gateAxes = axes.map((axis): GateAxis => {
    const row = judgeVsHuman.axes.find((entry) => entry.axis === axis)!;
    const problems: string[] = [];
    const kappa = row.kappa.quadratic;
    if (kappa === null) problems.push(row.n === 0 ? 'no judge-vs-human pairs' : 'quadratic kappa is undefined (one rating value only)');
    else if (kappa < input.gate.minKappa) problems.push(`quadratic kappa ${kappa.toFixed(3)} is below ${input.gate.minKappa}`);
    if (row.bias !== null && Math.abs(row.bias) > input.gate.maxBias) {
      problems.push(`bias ${signed(row.bias)} points is beyond ±${input.gate.maxBias}`);
    }
    return { axis, kappa_quadratic: kappa, bias: row.bias, passed: problems.length === 0, problems };
  });

  const reviewers: Record<string, number> = {};
  for (const item of humanItems) for (const rating of item.ratings) reviewers[rating.reviewer] = (reviewers[rating.reviewer] ?? 0) + 1;

  return {
    schema_version: CALIBRATION_REPORT_SCHEMA_VERSION,
    generated_at: input.now.toISOString(),
    set: {
      path: input.setPath,
      owner: set.owner,
      rubric_version: set.rubric_version,
      axes: [...axes],
      items: set.items.length,
      rated_items: humanItems.filter((item) => item.ratings.length > 0).length,
      reviewers: Object.fromEntries(Object.entries(reviewers).sort(([left], [right]) => (left < right ? -1 : 1))),
    },
    session: {
      id: session.id,
      started_at: session.started_at,
      finished_at: session.finished_at,
      mode: session.mode,
      rubric_version: session.rubric_version,
      judge: session.raters.judge ?? null,
      cross_check: session.raters.cross_check ?? null,
      rated: { judge: usable.byRater.judge.size, cross_check: usable.byRater.cross_check.size },
      errors: input.ratings.filter((rating) => rating.error !== null).map((rating) => ({ item_id: rating.item_id, rater: rating.rater, error: rating.error! })),
      selected_by: input.selection?.by ?? 'session_flag',
      unfinished_left_out: [...(input.selection?.unfinished_left_out ?? [])],
    },
    method: {
      labels: [...RATING_LABELS],
      gate_kappa: 'quadratic',
      interval_level: 0.95,
      z: Z_95,
      bootstrap: { seed: input.bootstrap.seed, resamples: input.bootstrap.resamples, unit: 'item' },
      analytic_interval: 'Fleiss, Cohen & Everitt (1969) large-sample standard error',
      alpha: "Krippendorff's alpha (2011), missing ratings allowed",
      pairing: 'a model is paired with every reviewer of an item; reviewers with each other, in name order',
    },
    gate: { min_kappa: input.gate.minKappa, max_bias: input.gate.maxBias, passed: gateAxes.every((axis) => axis.passed), axes: gateAxes },
    comparisons,
    alpha_all_raters: alphaOfAllRaters(ratings, axes),
    trend: trend(input, humanItems, digests, { judge: usable.byRater.judge, pairs: tables.judge_vs_human }),
    warnings,
  };
}

/** Items with only the human ratings given under `rubricVersion`. */
function withHumanRatingsOf(items: readonly CalibrationItem[], rubricVersion: string): CalibrationItem[] {
  return items.map((item) => ({ ...item, ratings: item.ratings.filter((rating) => rating.rubric_version === rubricVersion) }));
}

/** Model scores per rater and item, leaving out errors and ratings of since-changed text. */
function usableModelRatings(digests: ReadonlyMap<string, string>, ratings: readonly StoredJudgeRating[]) {
  const byRater: Record<CalibrationRater, Map<string, Record<string, number>>> = { judge: new Map(), cross_check: new Map() };
  const stale: string[] = [];
  for (const rating of ratings) {
    if (rating.scores === null) continue;
    const digest = digests.get(rating.item_id);
    if (digest === undefined) continue; // the item left the set
    if (digest !== rating.item_digest) {
      stale.push(rating.item_id);
      continue;
    }
    byRater[rating.rater].set(rating.item_id, rating.scores);
  }
  return { byRater, stale: [...new Set(stale)] };
}

/** Alpha over every reviewer and both models at once, units = items (overall: item × axis). */
function alphaOfAllRaters(ratings: RatingsByRater, axes: readonly string[]): CalibrationReport['alpha_all_raters'] {
  const reviewers = [...new Set(ratings.items.flatMap((item) => item.ratings.map((rating) => rating.reviewer)))].sort();
  const raters = [...reviewers, 'judge', 'cross_check'];
  const unitsOf = (axis: string) =>
    ratings.items.map((item) => [
      ...reviewers.map((reviewer) => {
        const value = item.ratings.find((rating) => rating.reviewer === reviewer)?.[axis];
        return typeof value === 'number' ? value : null;
      }),
      ratings.judge.get(item.id)?.[axis] ?? null,
      ratings.crossCheck.get(item.id)?.[axis] ?? null,
    ]);
  const row = (axis: string, units: Array<Array<number | null>>) => {
    const alpha = krippendorffAlphas(units, ['ordinal', 'interval']);
    return { axis, raters, ordinal: alpha.ordinal ?? null, interval: alpha.interval ?? null };
  };
  return [...axes.map((axis) => row(axis, unitsOf(axis))), row(OVERALL, axes.flatMap((axis) => unitsOf(axis)))];
}

/** Judge-vs-human quadratic kappa and bias of this and earlier sessions (replays of a recording are not new judgements). */
function trend(input: CalibrationReportInput, humanItems: readonly CalibrationItem[], digests: ReadonlyMap<string, string>, reported: { judge: ScoresByItem; pairs: readonly PairsByItem[] }): TrendEntry[] {
  const sessions = [
    { session: input.session, ratings: input.ratings },
    // Unfinished sessions (a killed `calibrate judge`) rated part of the set: no trend point.
    ...input.history.filter((entry) => entry.session.id !== input.session.id && entry.session.mode !== 'replay' && entry.session.finished_at !== null),
  ].slice(0, 13);
  return sessions.map(({ session, ratings }) => {
    const items = session.rubric_version === input.session.rubric_version ? humanItems : withHumanRatingsOf(input.set.items, session.rubric_version);
    // The reported session's judge ratings and pairs are the report's own judge-vs-human table.
    const own = session === input.session;
    const judge = own ? reported.judge : usableModelRatings(digests, ratings).byRater.judge;
    const perAxis = own ? reported.pairs : comparisonTables({ items, judge, crossCheck: new Map() }, input.set.axes).judge_vs_human;
    const kappa: Record<string, Measured> = {};
    const bias: Record<string, Measured> = {};
    const rowsOf: Array<[string, RatingPair[]]> = [...input.set.axes.map((axis, index): [string, RatingPair[]] => [axis, perAxis[index]!.flat()]), [OVERALL, perAxis.flat(2)]];
    for (const [axis, pairs] of rowsOf) {
      kappa[axis] = cohenKappa(confusionMatrix(pairs), 'quadratic') ?? null;
      bias[axis] = meanSignedDifference(pairs) ?? null;
    }
    return {
      session_id: session.id,
      started_at: session.started_at,
      mode: session.mode,
      judge: session.raters.judge ?? null,
      rubric_version: session.rubric_version,
      items: items.filter((item) => judge.has(item.id) && item.ratings.length > 0).length,
      kappa_quadratic: kappa,
      bias,
    };
  });
}

function preview(ids: readonly string[]): string {
  return ids.length <= 4 ? ids.join(', ') : `${ids.slice(0, 4).join(', ')}, …`;
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
}
