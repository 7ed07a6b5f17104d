import { ConfigError, seededRandom, type Status } from '@parley/core';
import { statusSeverity } from '@parley/gate';
import { mean, sampleStandardDeviation, tTest } from 'simple-statistics';
import { bootstrapMeanInterval, type BootstrapInterval } from './bootstrap-interval.js';
import { pairedPermutationTest, type PermutationTestResult } from './paired-permutation-test.js';
import type { RunScores } from './run-scores.js';

/** One side of a metric's comparison: the mean over its attempts. */
export interface ScoreSummary {
  mean: number;
  /** Attempts the mean is over. */
  n: number;
  /** Sample standard deviation over the attempts; null with fewer than 2. */
  sd: number | null;
}

export interface MetricDelta {
  scenario_id: string;
  /** Metric key (`tool_correctness`, `tool_correctness#2`). */
  metric: string;
  before: ScoreSummary;
  after: ScoreSummary;
  /** after.mean − before.mean: negative is worse. */
  delta: number;
}

export interface StatusChange {
  scenario_id: string;
  before: Status;
  after: Status;
  /** True when the status got more severe (pass → fail, pass → flaky …). */
  worse: boolean;
}

/** The across-scenario test of one metric. */
export interface MetricTest {
  metric: string;
  /** Paired (scenario, metric key) units. */
  pairs: number;
  mean_delta: number;
  /** Percentile bootstrap interval of the mean delta. */
  interval: BootstrapInterval;
  test: PermutationTestResult;
  /** Paired t statistic for readers used to it (null when every delta is equal). */
  t_statistic: number | null;
  /** `regression` / `improvement` when p < alpha and the interval excludes 0; else `no significant change`. */
  verdict: 'regression' | 'improvement' | 'no significant change';
}

export interface Comparison {
  before: { label: string; run_id: string; repeat: number };
  after: { label: string; run_id: string; repeat: number };
  suite: string;
  /** Scenarios whose status changed, worse first. */
  status_changes: StatusChange[];
  /** Per scenario and scored metric present in both runs, regressions first (most negative delta). */
  deltas: MetricDelta[];
  /** Scenarios in only one of the runs. */
  only_before: string[];
  only_after: string[];
  /** Per metric, when both runs have repeats; null otherwise (see `statistics_note`). */
  tests: MetricTest[] | null;
  statistics_note: string;
  seed: number;
  alpha: number;
}

export interface CompareOptions {
  /** Seed of the bootstrap and of sampled permutations: the same runs and seed give the same numbers. */
  seed?: number;
  resamples?: number;
  /** Significance level (default 0.05). */
  alpha?: number;
}

/**
 * Compares two runs of one suite offline (docs/gating.md, "Baselines"): status changes, and per
 * scenario and scored metric the delta of the mean score, regressions first. When both runs
 * repeated their scenarios (`--repeat N`), each metric also gets a paired test across scenarios
 * (sign-flip permutation, exact up to 16 pairs) and a seeded bootstrap interval of the mean delta,
 * so that a team can tell a real regression from the noise an LLM agent makes between runs. Without
 * repeats one score per scenario says too little about its noise, and the statistics are left out
 * with a note saying so.
 *
 * Runs of different suites are refused (ConfigError): their scenarios are not the same tests.
 */
export function compareRuns(before: RunScores, after: RunScores, options: CompareOptions = {}): Comparison {
  if (before.suite !== after.suite) {
    throw new ConfigError(`cannot compare runs of different suites: ${before.label} is suite "${before.suite}", ${after.label} is suite "${after.suite}"`);
  }
  const seed = options.seed ?? 1;
  const alpha = options.alpha ?? 0.05;
  const status_changes: StatusChange[] = [];
  const deltas: MetricDelta[] = [];
  for (const [id, old] of before.scenarios) {
    const now = after.scenarios.get(id);
    if (now === undefined) continue;
    if (old.status !== now.status) {
      status_changes.push({ scenario_id: id, before: old.status, after: now.status, worse: statusSeverity(now.status) > statusSeverity(old.status) });
    }
    for (const [key, scores] of old.metrics) {
      const current = now.metrics.get(key);
      if (current === undefined || current.scores.length === 0 || scores.scores.length === 0) continue;
      const beforeSummary = summarise(scores.scores);
      const afterSummary = summarise(current.scores);
      deltas.push({ scenario_id: id, metric: key, before: beforeSummary, after: afterSummary, delta: afterSummary.mean - beforeSummary.mean });
    }
  }
  status_changes.sort((left, right) => Number(right.worse) - Number(left.worse) || statusSeverity(right.after) - statusSeverity(left.after) || compareOrdinal(left.scenario_id, right.scenario_id));
  deltas.sort((left, right) => left.delta - right.delta || compareOrdinal(left.scenario_id, right.scenario_id) || compareOrdinal(left.metric, right.metric));

  const repeated = before.repeat > 1 && after.repeat > 1;
  const tests = repeated ? metricTests(deltas, seed, options.resamples ?? 10_000, alpha) : null;
  const once = [before, after].filter((side) => side.repeat <= 1).map((side) => side.label);
  const statistics_note = repeated
    ? `paired sign-flip permutation test, 95% bootstrap interval of the mean delta, seed ${seed}; significant when p < ${alpha} and the interval excludes 0`
    : `no significance test: ${once.length === 2 ? 'both runs' : once[0]} ran each scenario once; run both with --repeat N (e.g. 5) to tell noise from regression`;

  return {
    before: { label: before.label, run_id: before.run_id, repeat: before.repeat },
    after: { label: after.label, run_id: after.run_id, repeat: after.repeat },
    suite: before.suite,
    status_changes,
    deltas,
    only_before: [...before.scenarios.keys()].filter((id) => !after.scenarios.has(id)).sort(),
    only_after: [...after.scenarios.keys()].filter((id) => !before.scenarios.has(id)).sort(),
    tests,
    statistics_note,
    seed,
    alpha,
  };
}

/**
 * Per metric (occurrences `name#2` pooled with `name`), the paired test of the deltas: sign-flip
 * permutation p-value, seeded bootstrap interval of the mean delta, and a verdict that calls a
 * change only when p < alpha and the interval excludes 0. Metrics come sorted by name.
 */
export function metricTests(deltas: ReadonlyArray<Pick<MetricDelta, 'metric' | 'delta'>>, seed: number, resamples: number, alpha: number): MetricTest[] {
  const byMetric = new Map<string, number[]>();
  for (const delta of deltas) {
    const name = delta.metric.replace(/#\d+$/, '');
    byMetric.set(name, [...(byMetric.get(name) ?? []), delta.delta]);
  }
  return [...byMetric.keys()].sort().map((metric) => {
    const values = byMetric.get(metric)!;
    // One seeded source per metric: adding a metric to the suite never changes another's numbers.
    const interval = bootstrapMeanInterval(values, seededRandom(seed), { resamples })!;
    const test = pairedPermutationTest(values, seededRandom(seed + 1), resamples);
    const meanDelta = mean(values);
    const t = values.length > 1 ? tTest(values, 0) : NaN;
    const significant = test.p_value < alpha && (interval.high < 0 || interval.low > 0);
    return {
      metric,
      pairs: values.length,
      mean_delta: meanDelta,
      interval,
      test,
      t_statistic: Number.isFinite(t) ? t : null,
      verdict: significant ? (meanDelta < 0 ? 'regression' : 'improvement') : 'no significant change',
    };
  });
}

function summarise(scores: readonly number[]): ScoreSummary {
  return { mean: mean(scores), n: scores.length, sd: scores.length > 1 ? sampleStandardDeviation(scores) : null };
}

function compareOrdinal(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
