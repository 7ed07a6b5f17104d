import { normalCdf } from '@parley/canary';
import type { TimedMonitorScore } from '@parley/store';
import { mean as meanOf, sampleVariance } from 'simple-statistics';

/** The one-sided test of a drop between windows, stated in every alert and in the docs. */
export const DROP_TEST =
  "one-sided Welch's test (unequal variances, normal approximation) of the window's mean against the previous windows' pooled mean";

export interface WindowComparisonOptions {
  /** Significance level of the drop test. */
  alpha: number;
  /** Fewest scores each side needs before the drop test is run (the normal approximation needs a few dozen). */
  minScores: number;
}

export const DEFAULT_WINDOW_COMPARISON: WindowComparisonOptions = { alpha: 0.01, minScores: 30 };

export interface MetricWindowComparison {
  metric: string;
  current: { n: number; mean: number | null };
  previous: { n: number; mean: number | null };
  floor: number | null;
  /** The current mean is below the floor. */
  below_floor: boolean;
  /** The drop test, when both sides had enough scores. */
  drop_test?: { z: number; p_value: number; significant: boolean };
  /** Why the drop test was not run. */
  not_tested?: string;
  alerts: string[];
}

/**
 * Compares each metric's scores in the current window with the previous windows: an alert when
 * the current mean is below the metric's floor, and one when it dropped significantly (see
 * DROP_TEST). Scores of errors are left out.
 */
export function compareWindows(
  current: readonly TimedMonitorScore[],
  previous: readonly TimedMonitorScore[],
  floors: ReadonlyMap<string, number | null>,
  options: WindowComparisonOptions = DEFAULT_WINDOW_COMPARISON,
): MetricWindowComparison[] {
  const metrics = [...new Set([...floors.keys(), ...current.map((score) => score.metric)])].sort();
  return metrics.map((metric) => {
    const now = values(current, metric);
    const before = values(previous, metric);
    const floor = floors.get(metric) ?? null;
    const nowMean = mean(now);
    const beforeMean = mean(before);
    const belowFloor = floor !== null && nowMean !== null && nowMean < floor;
    const alerts: string[] = [];
    if (belowFloor) alerts.push(`${metric}: mean ${nowMean!.toFixed(3)} over ${now.length} conversations is below its floor ${floor!.toFixed(2)}`);
    let dropTest: MetricWindowComparison['drop_test'];
    let notTested: string | undefined;
    if (now.length < options.minScores || before.length < options.minScores) {
      notTested = `drop test needs ${options.minScores} scores in the window and in the previous windows (has ${now.length} and ${before.length})`;
    } else {
      const z = welchZ(now, before);
      const pValue = normalCdf(z);
      dropTest = { z, p_value: pValue, significant: pValue < options.alpha };
      if (dropTest.significant) {
        alerts.push(
          `${metric}: mean dropped from ${beforeMean!.toFixed(3)} (${before.length} before) to ${nowMean!.toFixed(3)} (${now.length} now), p = ${formatP(pValue)} < ${options.alpha}`,
        );
      }
    }
    return {
      metric,
      current: { n: now.length, mean: nowMean },
      previous: { n: before.length, mean: beforeMean },
      floor,
      below_floor: belowFloor,
      ...(dropTest ? { drop_test: dropTest } : {}),
      ...(notTested !== undefined ? { not_tested: notTested } : {}),
      alerts,
    };
  });
}

function values(scores: readonly TimedMonitorScore[], metric: string): number[] {
  return scores.filter((score) => score.metric === metric && !score.error && score.score !== null).map((score) => score.score!);
}

function mean(list: readonly number[]): number | null {
  return list.length === 0 ? null : meanOf([...list]);
}

/** The sample variance (n − 1); 0 for fewer than two values, which have no spread to measure. */
function variance(list: readonly number[]): number {
  return list.length < 2 ? 0 : sampleVariance([...list]);
}

/** Scores lie in [0, 1]: a difference of means this small is floating-point rounding, not a change. */
const SAME_MEAN = 1e-9;

/** Welch's statistic of (now − before); negative when the mean dropped. */
export function welchZ(now: readonly number[], before: readonly number[]): number {
  const nowMean = mean(now)!;
  const beforeMean = mean(before)!;
  // Means that differ only by rounding are equal: 40 scores of 0.7 average 0.6999999999999995 and
  // 160 average 0.7000000000000018, and with no variance that read as a drop of z = −14.
  if (Math.abs(nowMean - beforeMean) <= SAME_MEAN) return 0;
  const standardError = Math.sqrt(variance(now) / now.length + variance(before) / before.length);
  if (standardError === 0) return nowMean === beforeMean ? 0 : nowMean < beforeMean ? -Infinity : Infinity;
  return (nowMean - beforeMean) / standardError;
}

function formatP(value: number): string {
  return value < 0.0001 ? '< 0.0001' : value.toFixed(4);
}
