import type { Random } from '@parley/core';
import { mean } from 'simple-statistics';
import { bootstrapDifferenceInterval, type DifferenceInterval } from './statistics/bootstrap-difference-interval.js';
import { DEFAULT_POWER, minimumCanarySize, type PowerSettings } from './statistics/minimum-sample-size.js';
import { twoProportionZTest, type TwoProportionTest } from './statistics/two-proportion-z-test.js';

/** One production conversation of either arm, as the comparison needs it. */
export interface ArmConversation {
  conversation_id: string;
  prompt_version: string;
  /** Whether the conversation got a 👎. */
  negative: boolean;
}

/** One judged score of a production conversation (what `parley monitor` stores). */
export interface ConversationScore {
  conversation_id: string;
  metric: string;
  score: number;
}

export type CanaryVerdict = 'promote' | 'continue' | 'rollback';

export interface CanaryComparisonInput {
  stableVersion: string;
  canaryVersion: string;
  /** The conversations of the window; those of other versions are ignored. */
  conversations: readonly ArmConversation[];
  /** Whether 👎 feedback was read: without it there is no 👎-rate test. */
  withFeedback: boolean;
  /** Judged scores; undefined when none are stored (the metric comparison is then left out). */
  scores?: readonly ConversationScore[];
  /** Draws the bootstrap resamples (seeded, so the same data give the same intervals). */
  random: Random;
  power?: PowerSettings;
  /** Confidence of the metric intervals (0.95). */
  level?: number;
  resamples?: number;
}

export interface ArmRate {
  conversations: number;
  negative: number;
  rate: number;
}

export interface FeedbackComparison {
  stable: ArmRate;
  canary: ArmRate;
  test: TwoProportionTest;
  /** The canary's 👎 rate is higher at the one-sided level α. */
  worse: boolean;
}

export interface MetricComparison {
  metric: string;
  stable: { scored: number; mean: number | null };
  canary: { scored: number; mean: number | null };
  /** Canary mean minus stable mean. */
  difference: number | null;
  interval: DifferenceInterval | null;
  /** The whole interval of the difference is below 0: the canary scores lower. */
  worse: boolean;
}

export interface CanaryComparison {
  stable_version: string;
  canary_version: string;
  conversations: { stable: number; canary: number };
  feedback: FeedbackComparison | null;
  /** Null when no judged scores were available. */
  metrics: MetricComparison[] | null;
  /**
   * The sample-size calculation: `minimum_canary` is null when the stable 👎 rate leaves no room for
   * a rise of `rise` (a rate above 1 − rise); `ratio_assumed` when an arm has no conversations and
   * the ratio of a 5 % canary (19 : 1) stands in for the observed one.
   */
  power: PowerSettings & { baseline: number; ratio: number; ratio_assumed: boolean; minimum_canary: number | null };
  verdict: CanaryVerdict;
  /** Why, one sentence each, the deciding one first. */
  reasons: string[];
}

/**
 * Compares the canary's conversations with the stable ones and decides (the rule the docs state):
 * - `rollback` when the canary's 👎 rate is higher by the one-sided pooled two-proportion z-test at
 *   α (0.05), or when a judged metric's bootstrap interval of (canary − stable) lies wholly below 0;
 * - else `continue` while the canary has fewer conversations than the power calculation asks for
 *   (a rise of `power.rise` over the stable 👎 rate, one-sided α, `power.power`, at the observed
 *   stable : canary ratio);
 * - else `promote`.
 */
export function compareCanary(input: CanaryComparisonInput): CanaryComparison {
  const settings = input.power ?? DEFAULT_POWER;
  const stable = input.conversations.filter((conversation) => conversation.prompt_version === input.stableVersion);
  const canary = input.conversations.filter((conversation) => conversation.prompt_version === input.canaryVersion);
  const stableRate = armRate(stable);
  const canaryRate = armRate(canary);

  let feedback: FeedbackComparison | null = null;
  if (input.withFeedback) {
    const test = twoProportionZTest({ events: canaryRate.negative, total: canaryRate.conversations }, { events: stableRate.negative, total: stableRate.conversations });
    if (test) feedback = { stable: stableRate, canary: canaryRate, test, worse: test.difference > 0 && test.pHigher < settings.alpha };
  }

  const metrics = input.scores === undefined ? null : compareMetrics(input, stable, canary);

  const baseline = stableRate.conversations > 0 ? stableRate.rate : 0;
  const ratioAssumed = !(canary.length > 0 && stable.length > 0);
  const ratio = ratioAssumed ? 19 : stable.length / canary.length;
  // No rise of `rise` fits above a stable rate over 1 − rise (100 % 👎 cannot rise by 5 points).
  const minimum = baseline + settings.rise > 1 + 1e-12 ? null : minimumCanarySize(baseline, ratio, settings);
  const power = { ...settings, baseline, ratio, ratio_assumed: ratioAssumed, minimum_canary: minimum };

  const reasons: string[] = [];
  if (feedback?.worse) {
    reasons.push(
      `👎 rate ${percent(feedback.canary.rate)} on the canary vs ${percent(feedback.stable.rate)} on stable (+${points(feedback.test.difference)}, z = ${feedback.test.z.toFixed(2)}, one-sided p ${pValue(feedback.test.pHigher)}, below α ${settings.alpha})`,
    );
  }
  for (const metric of metrics ?? []) {
    if (metric.worse && metric.interval) {
      reasons.push(`${metric.metric} mean ${metric.canary.mean!.toFixed(3)} on the canary vs ${metric.stable.mean!.toFixed(3)} on stable (difference ${metric.difference!.toFixed(3)}, ${Math.round(metric.interval.level * 100)} % interval ${metric.interval.low.toFixed(3)} to ${metric.interval.high.toFixed(3)}, wholly below 0)`);
    }
  }
  let verdict: CanaryVerdict;
  if (reasons.length > 0) verdict = 'rollback';
  else if (stable.length === 0 && canary.length === 0) {
    verdict = 'continue';
    reasons.push('no conversations of either version in the window: nothing to compare yet');
  } else if (stable.length === 0) {
    verdict = 'continue';
    reasons.push('no stable conversations in the window to compare with');
  } else if (minimum === null) {
    verdict = 'continue';
    reasons.push(
      `the stable 👎 rate is ${percent(baseline)}: no rise of ${points(settings.rise)} fits above it, so the 👎 rate cannot tell the arms apart (read the feedback, or compare judged metrics with parley monitor)`,
    );
  } else if (canary.length < minimum) {
    verdict = 'continue';
    reasons.push(`${canary.length} canary conversation${canary.length === 1 ? '' : 's'} of the ${minimum} needed to detect a ${points(settings.rise)} rise in 👎 rate (α ${settings.alpha} one-sided, power ${settings.power})`);
  } else {
    verdict = 'promote';
    reasons.push(
      `${canary.length} canary conversations (≥ ${minimum} needed) and no significant rise in 👎 rate${metrics && metrics.length > 0 ? ' nor drop in a judged metric' : ''}`,
    );
  }
  return {
    stable_version: input.stableVersion,
    canary_version: input.canaryVersion,
    conversations: { stable: stable.length, canary: canary.length },
    feedback,
    metrics,
    power,
    verdict,
    reasons,
  };
}

function armRate(conversations: readonly ArmConversation[]): ArmRate {
  const negative = conversations.filter((conversation) => conversation.negative).length;
  return { conversations: conversations.length, negative, rate: conversations.length === 0 ? 0 : negative / conversations.length };
}

function compareMetrics(input: CanaryComparisonInput, stable: readonly ArmConversation[], canary: readonly ArmConversation[]): MetricComparison[] {
  const arms = new Map<string, 'stable' | 'canary'>();
  for (const conversation of stable) arms.set(conversation.conversation_id, 'stable');
  for (const conversation of canary) arms.set(conversation.conversation_id, 'canary');
  const byMetric = new Map<string, { stable: number[]; canary: number[] }>();
  for (const score of input.scores ?? []) {
    const arm = arms.get(score.conversation_id);
    if (arm === undefined || !Number.isFinite(score.score)) continue;
    let values = byMetric.get(score.metric);
    if (!values) byMetric.set(score.metric, (values = { stable: [], canary: [] }));
    values[arm].push(score.score);
  }
  return [...byMetric.keys()].sort().map((metric) => {
    const values = byMetric.get(metric)!;
    const stableMean = values.stable.length > 0 ? mean(values.stable) : null;
    const canaryMean = values.canary.length > 0 ? mean(values.canary) : null;
    const interval =
      values.stable.length >= 2 && values.canary.length >= 2
        ? bootstrapDifferenceInterval(values.stable, values.canary, input.random, { level: input.level ?? 0.95, resamples: input.resamples ?? 10_000 })
        : null;
    return {
      metric,
      stable: { scored: values.stable.length, mean: stableMean },
      canary: { scored: values.canary.length, mean: canaryMean },
      difference: stableMean === null || canaryMean === null ? null : canaryMean - stableMean,
      interval,
      worse: interval !== null && interval.high < 0,
    };
  });
}

function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)} %`;
}

function points(difference: number): string {
  return `${(difference * 100).toFixed(1)} pts`;
}

function pValue(p: number): string {
  return p < 0.0001 ? '< 0.0001' : p.toFixed(4);
}
