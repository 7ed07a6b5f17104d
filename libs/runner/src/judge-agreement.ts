import type { CrossCheckPair } from '@parley/judge';
import type { RunWarning } from '@parley/gate';
import type { CrossCheckKappa } from '@parley/reports';
import { openJudgeAgreement } from '@parley/store';

/** A pass/fail kappa this far below the mean of the suite's last runs is a warning: the judges drift apart. */
const KAPPA_DROP_WARNING = 0.2;
/** Earlier runs the trend and the mean are taken over. */
const KAPPA_TREND_RUNS = 5;
/** Score bands of the weighted kappa: 0–0.2, 0.2–0.4, …, 0.8–1 (a 1–5 rubric scale maps one to one). */
const SCORE_BANDS = 5;

/**
 * Cohen's kappa between the primary judge and the cross-check on a run's sampled verdicts: on
 * pass/fail (unweighted) and on the scores in five bands (quadratic weights), with the kappa
 * functions the judge calibration uses. Undefined kappas (no pairs, one category only) are null.
 */
export async function crossCheckKappa(pairs: readonly CrossCheckPair[]): Promise<Omit<CrossCheckKappa, 'trend'>> {
  const { cohenKappa } = await import('@parley/calibration');
  const passFail = [
    [0, 0],
    [0, 0],
  ];
  const bands = Array.from({ length: SCORE_BANDS }, () => new Array<number>(SCORE_BANDS).fill(0));
  for (const pair of pairs) {
    passFail[pair.primary.passed ? 0 : 1]![pair.cross_check.passed ? 0 : 1]! += 1;
    bands[band(pair.primary.score)]![band(pair.cross_check.score)]! += 1;
  }
  return { pairs: pairs.length, pass_fail: cohenKappa(passFail) ?? null, weighted: cohenKappa(bands, 'quadratic') ?? null };
}

/**
 * The run's kappa, stored in the run history beside the run, with the suite's trend and a warning
 * when the pass/fail kappa fell more than {@link KAPPA_DROP_WARNING} below the mean of the suite's
 * last {@link KAPPA_TREND_RUNS} runs that measured one.
 */
export async function recordJudgeAgreement(input: {
  storePath: string;
  run: { id: string; suite: string; started_at: string };
  pairs: readonly CrossCheckPair[];
  /** How the person runs Parley (`npx parley`), for the command the warning names. */
  parleyCommand?: () => string;
}): Promise<{ kappa: CrossCheckKappa; warnings: RunWarning[] }> {
  const measured = await crossCheckKappa(input.pairs);
  const store = openJudgeAgreement(input.storePath);
  try {
    const previous = store.previous(input.run.suite, input.run.started_at, KAPPA_TREND_RUNS).reverse();
    store.save({ run_id: input.run.id, suite: input.run.suite, started_at: input.run.started_at, pairs: measured.pairs, kappa: measured.pass_fail, weighted_kappa: measured.weighted });
    const trend = previous.flatMap((record) => (record.kappa === null ? [] : [{ run_id: record.run_id, kappa: record.kappa }]));
    const warnings: RunWarning[] = [];
    if (measured.pass_fail !== null && trend.length > 0) {
      const mean = trend.reduce((sum, entry) => sum + entry.kappa, 0) / trend.length;
      if (measured.pass_fail < mean - KAPPA_DROP_WARNING) {
        warnings.push({
          kind: 'judge_agreement_drop',
          message: `the cross-check judge agrees less with the primary: kappa ${measured.pass_fail.toFixed(2)} on ${measured.pairs} sampled verdicts, down from a mean of ${mean.toFixed(2)} over the last ${trend.length} run${trend.length === 1 ? '' : 's'}; check the judges against people (${input.parleyCommand?.() ?? 'parley'} calibrate judge)`,
          fails_under_strict: false,
        });
      }
    }
    return { kappa: { ...measured, trend }, warnings };
  } finally {
    store.close();
  }
}

function band(score: number): number {
  return Math.min(SCORE_BANDS - 1, Math.max(0, Math.floor(score * SCORE_BANDS)));
}
