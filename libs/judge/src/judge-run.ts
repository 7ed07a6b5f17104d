import { scenarioOfCase, type Clock, type MetricResult, type Provider, type Transcript } from '@parley/core';
import type { Expectation, ModelRef, SuiteFile } from '@parley/config';
import { metricParamsOf, describeIssues, unevaluableResult } from '@parley/metrics';
import { costOfCall, type ModelPrice } from '@parley/providers';
import type { CrossCheckDowngrade, JudgeReport, MetricAgreement } from '@parley/reports';
import * as z from 'zod';
import { crossCheckSample } from './cross-check-sample.js';
import { cachedOrClaimed, type Sleep } from '@parley/store';
import { judgeCacheKey, type JudgeCache } from './judge-cache.js';
import { judgeExpectation, judgeResult, verdictPasses, type JudgeOutcome } from './judge-expectation.js';
import type { JudgeMetric } from './judge-metric.js';
import { transcriptDigest } from './transcript-digest.js';

/**
 * The share of the budget at which the cross-check sample drops to 0 % for the rest of the run
 * (seed practice: 10 % → 0 % on budget breach, moved forward so the remaining 20 % buys coverage).
 */
export const CROSS_CHECK_BUDGET_SHARE = 0.8;

/** One expectation both the primary judge and the cross-check judged: their scores (0–1) and pass/fail. */
export interface CrossCheckPair {
  metric: string;
  primary: { score: number; passed: boolean };
  cross_check: { score: number; passed: boolean };
}

/** What the judging needs to know of the run's spending (the runner's BudgetTracker has it). */
export interface BudgetView {
  readonly exhausted: boolean;
  readonly spentUsd: number;
  readonly limitUsd: number;
}

export interface JudgeRunOptions {
  judge: NonNullable<SuiteFile['judge']> & { primary: ModelRef };
  catalog: ReadonlyMap<string, JudgeMetric>;
  /** `live`: the judge is called; `replay`: its answers come from the recordings. */
  mode: 'live' | 'replay';
  /** The verdict cache; undefined = neither read nor written (--no-cache). */
  cache?: JudgeCache;
  /** Look verdicts up (live judging outside record mode); new verdicts are stored whenever judging is live. */
  readCache: boolean;
  /** `--cache-clear` emptied the cache first (for the report). */
  cleared?: boolean;
  /** The run seed: draws the cross-check sample. */
  seed: number;
  /** The scenarios the cross-check sample is drawn from (the whole suite's judged scenarios). */
  scenarioIds: readonly string[];
  /** The scenarios this run judges, when only part of the pool (a shard, a change set): the sample is cut to them. */
  runScenarioIds?: readonly string[];
  budget?: BudgetView;
  clock: Clock;
  pricing?: Record<string, ModelPrice>;
  /** Waits between looks for a verdict another process is judging (tests pass their own). */
  sleep?: Sleep;
  /**
   * Masks credentials in a verdict before it is cached: a judge's reason can quote a key the
   * conversation showed, and the cache (`.parley/parley.db`, a team store) must never hold one.
   */
  secrets?: { value(value: unknown): unknown };
}

/** One scenario's transcript to judge, with what judging it needs from the runner. */
export interface ScenarioToJudge {
  scenario: { id: string; language?: string };
  transcript: Transcript;
  /** The scenario's judge expectations, in order. */
  expectations: readonly Expectation[];
  /** See prompt-version.ts. */
  promptVersion: string;
  /** The provider stack for a judge model (replay, live with retries, recording, metering): the runner's. */
  provider(model: ModelRef): Provider;
  /** Under `--repeat N`, the attempt from 1. */
  attempt?: number;
  signal?: AbortSignal;
}

const CachedOutcomeSchema = z.object({
  verdict: z.object({
    score: z.number(),
    unmet_required: z.array(z.string()),
    summary: z.string(),
    details: z.record(z.string(), z.unknown()),
  }),
  votes: z.array(z.object({ score: z.number(), passed: z.boolean() })).optional(),
  calls: z.number().int().min(0),
});

interface Judged {
  outcome: JudgeOutcome;
  /** Set when the outcome came from the cache. */
  cachedAt?: string;
}

/**
 * The judging of one run (docs/file-formats.md, "Judge metrics"): every judge expectation of every
 * scenario through the primary judge (with `votes_on_fail`), the verdict cache, the deterministic
 * cross-check sample with a second model, and the budget-aware downgrade of that sample. Collects
 * what the report's `judge` section says. One per run; scenarios call `judgeScenario` as they
 * finish their conversations.
 */
export class JudgeRun {
  private readonly sampled: ReadonlySet<string>;
  private readonly checked = new Set<string>();
  private readonly notChecked = new Set<string>();
  private downgrade: Omit<CrossCheckDowngrade, 'not_checked'> | undefined;
  private readonly agreement = new Map<string, { compared: number; agreed: number; differences: number[] }>();
  private readonly pairs: CrossCheckPair[] = [];
  private verdicts = 0;
  private errors = 0;
  /** Judge calls the budget refused, or Ctrl-C cut short: not verdicts, and not errors either. */
  private readonly notAsked = { budget: 0, interrupted: 0 };
  private reAsked = 0;
  private hits = 0;
  private misses = 0;
  private savedUsd: number | null = 0;

  constructor(private readonly options: JudgeRunOptions) {
    const crossCheck = options.judge.cross_check;
    // Drawn over scenarios, not cases: in a comparison run every agent is cross-checked on the same scenarios.
    const sample = crossCheck ? crossCheckSample(options.scenarioIds.map(scenarioOfCase), crossCheck.sample ?? DEFAULT_CROSS_CHECK_SAMPLE, options.seed) : new Set<string>();
    const pool = options.runScenarioIds ?? options.scenarioIds;
    this.sampled = new Set(pool.filter((id) => sample.has(scenarioOfCase(id))));
  }

  isJudgeMetric(name: string): boolean {
    return this.options.catalog.has(name);
  }

  /** Whether the cross-check sample includes this scenario (before any budget downgrade). */
  isSampled(scenarioId: string): boolean {
    return this.sampled.has(scenarioId);
  }

  /**
   * One metric result per expectation, in order. Never throws: an unusable answer or a failed call
   * is that metric's `error` result, and the scenario's other metrics are still judged.
   */
  async judgeScenario(scenario: ScenarioToJudge): Promise<MetricResult[]> {
    const { primary, cross_check: crossCheck } = this.options.judge;
    const { votes: votesOnFail, panel } = votesOnFailOf(this.options.judge.votes_on_fail);
    const sampled = crossCheck !== undefined && this.sampled.has(scenario.scenario.id);
    let crossChecked = false;
    // Decided once per scenario, at its first cross-check: a scenario is cross-checked on all its
    // judge metrics or on none, so it is never both checked and "not checked" in the report.
    let crossCheckThis: boolean | undefined;
    const digest = transcriptDigest(scenario.transcript);
    const results: MetricResult[] = [];
    for (const expectation of scenario.expectations) {
      const metric = this.options.catalog.get(expectation.metric);
      if (metric === undefined) {
        results.push(unevaluableResult({ name: expectation.metric, version: 'unknown' }, `metric "${expectation.metric}" is not a judge metric of this suite`, expectation.threshold ?? null));
        continue;
      }
      const threshold = expectation.threshold ?? metric.defaultThreshold;
      const params = metricParamsOf(expectation);
      const parsed = metric.params.safeParse(params);
      if (!parsed.success) {
        results.push(unevaluableResult(metric, `${metric.name} has invalid parameters: ${describeIssues(parsed.error)}`, threshold));
        continue;
      }
      const question = Object.keys(params).length > 0 ? params : undefined;
      const judge = (model: ModelRef, votes: number, panelModels: readonly ModelRef[] = []) =>
        this.judged({ metric, params: parsed.data, threshold, model, votes, panel: panelModels, scenario, digest, ...(question ? { question } : {}) });

      const main = await judge(primary, votesOnFail, panel);
      const result = withCacheMark(judgeResult(metric, main.outcome, threshold, modelVersion(primary)), main);
      const unasked = notAskedBecause(main.outcome);
      if (unasked !== undefined) this.notAsked[unasked] += 1;
      else {
        this.verdicts += 1;
        if (main.outcome.kind !== 'verdict') this.errors += 1;
        else if (main.outcome.votes !== undefined) this.reAsked += 1;
      }

      // Asked just before each cross-check call, so spending by this very scenario counts.
      if (sampled && crossCheck !== undefined && (crossCheckThis ??= this.crossCheckAllowed(scenario.scenario.id))) {
        const second = await judge(crossCheck, 1);
        const notRecorded = second.outcome.kind === 'failed' && second.outcome.error.kind === 'replay_miss';
        if (!notRecorded) crossChecked = true;
        result.details = {
          ...result.details,
          cross_check: notRecorded
            ? // A replay of a subset (--scenario) can sample a scenario the recorded run did not: nothing to compare, not an error.
              { judge_model: modelVersion(crossCheck), not_recorded: true }
            : this.crossCheckDetails(metric.name, main.outcome, second, crossCheck, threshold),
        };
      }
      results.push(result);
    }
    if (crossChecked) this.checked.add(scenario.scenario.id);
    return results;
  }

  /** The report's `judge` section. */
  report(): JudgeReport {
    const { primary, cross_check: crossCheck } = this.options.judge;
    const { votes: votesOnFail, panel } = votesOnFailOf(this.options.judge.votes_on_fail);
    const cacheUsed = this.options.cache !== undefined && this.options.mode === 'live';
    return {
      primary: modelVersion(primary),
      mode: this.options.mode,
      verdicts: this.verdicts,
      errors: this.errors,
      ...(this.notAsked.budget + this.notAsked.interrupted > 0 ? { not_asked: { ...this.notAsked } } : {}),
      ...(votesOnFail > 1 ? { votes_on_fail: votesOnFail, re_asked: this.reAsked } : {}),
      ...(panel.length > 0 ? { panel: panel.map(modelVersion) } : {}),
      cache: {
        read: cacheUsed && this.options.readCache,
        written: cacheUsed,
        cleared: this.options.cleared ?? false,
        hits: this.hits,
        misses: this.misses,
        saved_usd: this.savedUsd,
      },
      ...(crossCheck
        ? {
            cross_check: {
              model: modelVersion(crossCheck),
              sample: crossCheck.sample ?? DEFAULT_CROSS_CHECK_SAMPLE,
              seed: this.options.seed,
              sampled: [...this.sampled].sort(),
              checked: [...this.checked].sort(),
              agreement: this.agreementReport(),
              ...(this.downgrade ? { downgrade: { ...this.downgrade, not_checked: this.notCrossChecked() } } : {}),
            },
          }
        : {}),
    };
  }

  /** Every sampled verdict both judges gave, in the order judged: what the run's kappa is computed from. */
  crossCheckPairs(): readonly CrossCheckPair[] {
    return this.pairs;
  }

  /** What the budget made the judging give up, for the report's `budget.downgrades`. */
  budgetDowngrades(): string[] {
    if (!this.downgrade) return [];
    const notChecked = this.notCrossChecked();
    const which = notChecked.length === 0 ? '' : `; ${notChecked.length} sampled scenario${notChecked.length === 1 ? '' : 's'} not cross-checked: ${notChecked.join(', ')}`;
    return [`${this.downgrade.message}${which}`];
  }

  /** Sampled scenarios the downgrade left without a second opinion (one cross-checked in another attempt was checked). */
  private notCrossChecked(): string[] {
    return [...this.notChecked].filter((id) => !this.checked.has(id)).sort();
  }

  /**
   * Cross-checking stops for the rest of the run once spending reaches CROSS_CHECK_BUDGET_SHARE of
   * the budget (docs/gating.md, "Budget"): the second opinion is the first thing to go, and it goes while a
   * fifth of the budget is left, so that money judges scenarios instead of re-judging a few.
   */
  private crossCheckAllowed(scenarioId: string): boolean {
    const budget = this.options.budget;
    if (this.downgrade === undefined && budget && (budget.exhausted || budget.spentUsd >= budget.limitUsd * CROSS_CHECK_BUDGET_SHARE)) {
      const sample = this.options.judge.cross_check?.sample ?? DEFAULT_CROSS_CHECK_SAMPLE;
      this.downgrade = {
        reason: 'budget',
        spent_usd: budget.spentUsd,
        limit_usd: budget.limitUsd,
        message: `cross-check sample ${formatPercent(sample)} → 0% at ${formatPercent(CROSS_CHECK_BUDGET_SHARE)} of the budget: $${budget.spentUsd.toFixed(4)} of $${budget.limitUsd.toFixed(4)} spent (${this.checked.size} of ${this.sampled.size} sampled scenarios cross-checked before)`,
      };
    }
    if (this.downgrade === undefined) return true;
    this.notChecked.add(scenarioId);
    return false;
  }

  private async judged(request: {
    metric: JudgeMetric;
    params: unknown;
    threshold: number;
    model: ModelRef;
    votes: number;
    /** `votes_on_fail` as a panel of other judge models (empty: re-asks of `model`). */
    panel: readonly ModelRef[];
    scenario: ScenarioToJudge;
    digest: string;
    question?: Record<string, unknown>;
  }): Promise<Judged> {
    const { metric, model, scenario } = request;
    const { cache, mode, readCache } = this.options;
    const useCache = cache !== undefined && mode === 'live';
    const attempt = scenario.attempt !== undefined && scenario.attempt > 1 ? { attempt: scenario.attempt } : {};
    const key = judgeCacheKey({
      scenario_id: scenario.scenario.id,
      prompt_version: scenario.promptVersion,
      judge_model_version: modelVersion(model),
      metric_version: `${metric.name}:${metric.version}`,
      transcript_digest: request.digest,
      ...(request.question ? { question: JSON.stringify(request.question) } : {}),
      ...(request.panel.length > 0 ? { panel: request.panel.map(modelVersion).join(',') } : {}),
      ...attempt,
    });
    let release = (): void => undefined;
    if (useCache && readCache) {
      // A verdict another process (a shard, a monitor job) is judging right now is waited for, not paid twice.
      const found = await cachedOrClaimed(cache, key, (entry) => CachedOutcomeSchema.safeParse(entry.value).success, this.options.sleep);
      if ('entry' in found) {
        const { entry } = found;
        const cached = CachedOutcomeSchema.parse(entry.value);
        this.hits += 1;
        this.savedUsd = this.savedUsd === null || entry.cost_usd === null ? null : this.savedUsd + entry.cost_usd;
        const outcome: JudgeOutcome = { kind: 'verdict', verdict: cached.verdict, calls: 0, ...(cached.votes ? { votes: cached.votes } : {}) };
        return { outcome, cachedAt: entry.created_at };
      }
      release = found.release;
      this.misses += 1;
    }
    try {
      return await this.judgedAfresh(request, key, useCache);
    } finally {
      release();
    }
  }

  private async judgedAfresh(request: Parameters<JudgeRun['judged']>[0], key: string, useCache: boolean): Promise<Judged> {
    const { metric, model, scenario } = request;
    const { cache } = this.options;
    const spend = { usd: 0 as number | null };
    const pricing = this.options.pricing ?? {};
    // Every call of this verdict (panel included) counts into what a cache hit saves later.
    const countedProvider = (judgeModel: ModelRef): Provider => {
      const inner = scenario.provider(judgeModel);
      return {
        async complete(completion, context, signal) {
          const response = await inner.complete(completion, context, signal);
          const usd = costOfCall(completion.model, response.usage, pricing);
          spend.usd = spend.usd === null || usd === null ? null : spend.usd + usd;
          return response;
        },
      };
    };
    const counted = countedProvider(model);
    const outcome = await judgeExpectation({
      metric,
      params: request.params,
      threshold: request.threshold,
      input: { transcript: scenario.transcript, scenario: scenario.scenario },
      model,
      provider: counted,
      votesOnFail: request.votes,
      ...(request.panel.length > 0 ? { panel: request.panel.map((panelModel) => ({ model: panelModel, provider: countedProvider(panelModel) })) } : {}),
      ...(scenario.signal ? { signal: scenario.signal } : {}),
    });
    if (useCache && cache !== undefined && outcome.kind === 'verdict') {
      cache.put({
        key,
        scenario_id: scenario.scenario.id,
        metric: metric.name,
        metric_version: metric.version,
        judge_model: modelVersion(model),
        prompt_version: scenario.promptVersion,
        value: this.maskedSecrets({ verdict: outcome.verdict, ...(outcome.votes ? { votes: outcome.votes } : {}), calls: outcome.calls }),
        cost_usd: spend.usd,
        created_at: this.options.clock.now().toISOString(),
      });
    }
    return { outcome };
  }

  private maskedSecrets(value: Record<string, unknown>): unknown {
    return this.options.secrets === undefined ? value : this.options.secrets.value(value);
  }

  private crossCheckDetails(metric: string, primary: JudgeOutcome, second: Judged, model: ModelRef, threshold: number): Record<string, unknown> {
    const judgeModel = modelVersion(model);
    if (second.outcome.kind !== 'verdict') {
      const problem = second.outcome.kind === 'unusable' ? `unusable answer (${second.outcome.problem})` : second.outcome.error.message;
      return { judge_model: judgeModel, error: problem };
    }
    const verdict = second.outcome.verdict;
    const passed = verdictPasses(verdict, threshold);
    const details: Record<string, unknown> = {
      judge_model: judgeModel,
      score: verdict.score,
      passed,
      ...(second.cachedAt ? { cached: true } : {}),
    };
    if (primary.kind === 'verdict') {
      const agrees = verdictPasses(primary.verdict, threshold) === passed;
      details['agrees'] = agrees;
      const tally = this.agreement.get(metric) ?? { compared: 0, agreed: 0, differences: [] };
      tally.compared += 1;
      if (agrees) tally.agreed += 1;
      tally.differences.push(Math.abs(primary.verdict.score - verdict.score));
      this.agreement.set(metric, tally);
      this.pairs.push({ metric, primary: { score: primary.verdict.score, passed: verdictPasses(primary.verdict, threshold) }, cross_check: { score: verdict.score, passed } });
    }
    return details;
  }

  private agreementReport(): MetricAgreement[] {
    return [...this.agreement.entries()]
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
      .map(([metric, tally]) => ({
        metric,
        compared: tally.compared,
        agreed: tally.agreed,
        rate: tally.compared === 0 ? null : tally.agreed / tally.compared,
        mean_abs_score_difference: tally.differences.length === 0 ? null : tally.differences.reduce((sum, value) => sum + value, 0) / tally.differences.length,
      }));
  }
}

/**
 * `judge.votes_on_fail` as votes and panel: a number N is N votes of the primary; a list of models
 * is a panel, one vote each after the primary's.
 */
function votesOnFailOf(setting: NonNullable<SuiteFile['judge']>['votes_on_fail']): { votes: number; panel: readonly ModelRef[] } {
  if (setting === undefined) return { votes: 1, panel: [] };
  if (typeof setting === 'number') return { votes: setting, panel: [] };
  return { votes: 1 + setting.length, panel: setting };
}

/** `cross_check: { …, sample: 0.10 }` is the default sample (docs/file-formats.md, "Suite"). */
const DEFAULT_CROSS_CHECK_SAMPLE = 0.1;

/** `anthropic:claude-opus-4-7`: the judge_model_version of the cache key and the reports. */
export function modelVersion(model: Pick<ModelRef, 'provider' | 'model'>): string {
  return `${model.provider}:${model.model}`;
}

function withCacheMark(result: MetricResult, judged: Judged): MetricResult {
  if (judged.cachedAt === undefined) return result;
  return { ...result, reason: `${result.reason} [cached verdict, cost 0]`, details: { ...result.details, cached: true, cached_at: judged.cachedAt } };
}

function formatPercent(fraction: number): string {
  return `${Number((fraction * 100).toFixed(2))}%`;
}

/** Why a judge call was never answered: the budget refused it, or Ctrl-C cut it short; undefined when it was. */
function notAskedBecause(outcome: JudgeOutcome): 'budget' | 'interrupted' | undefined {
  if (outcome.kind !== 'failed') return undefined;
  if (outcome.error.kind === 'budget') return 'budget';
  return outcome.error.kind === 'aborted' ? 'interrupted' : undefined;
}
