import type { Expectation, LoadedSuite, ModelRef } from '@parley/config';
import { ConfigError, type Clock, type MetricResult, type Provider } from '@parley/core';
import { judgeMetricCatalog, JudgeRun, liveJudgeProvider, modelVersion, type BudgetView } from '@parley/judge';
import { metricParamsOf } from '@parley/metrics';
import { chooseAgent, conversationEnd, type Located, type LoggedConversation } from '@parley/production';
import { batchPrices, cacheSavingOfCall, costOfCall, createBatchClient, meteredProvider } from '@parley/providers';
import { restrictedVerticalProblem, type Redactor } from '@parley/redaction';
import { openJudgeCache, openMonitorBatchStore, openMonitorStore, type MonitoredConversation, type MonitorScore } from '@parley/store';
import { LangfuseError, sendLangfuseScores, type LangfuseScore, type LangfuseTarget, type SendScoresOptions } from '@parley/langfuse';
import { monitorScoreId } from './monitor-score-id.js';
import { BatchJudging, BatchPendingError, type BatchState } from './batch-judging.js';
import { estimateJudgeCost } from './judge-cost-estimate.js';
import { metricFloor, monitoredExpectations } from './monitored-expectations.js';
import { productionTranscript } from './production-transcript.js';
import { compareWindows, DEFAULT_WINDOW_COMPARISON, type MetricWindowComparison, type WindowComparisonOptions } from './window-comparison.js';

export interface MonitorInput {
  suite: LoadedSuite;
  /** The suite's agent the conversations were with (default: its only agent). */
  agent?: string;
  /** The log, as messages name it (`prod/conversations.jsonl`). */
  logsFile: string;
  /** The sampled conversations of the window (see readSampledConversations). */
  conversations: ReadonlyArray<Located<LoggedConversation>>;
  redactor: Redactor;
  storePath: string;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  /** `--metric`: judge metrics added to the suite's defaults and the agent's. */
  metrics?: readonly string[];
  /** `--dry-run`: plan and estimate only; no call, nothing stored. */
  dryRun: boolean;
  /** Spending limit of this monitoring run (USD). */
  budgetUsd?: number;
  /** Scores are pushed to this Langfuse when given. */
  langfuse?: LangfuseTarget;
  langfuseOptions?: SendScoresOptions;
  /** Seed of the cross-check sample. */
  seed?: number;
  concurrency?: number;
  /** The window (`--since`) and how many windows before it the comparison pools. */
  windowMs: number;
  previousWindows: number;
  comparison?: WindowComparisonOptions;
  /** The judge model's provider (tests); the live SDK with retries otherwise. */
  judgeProvider?: (model: ModelRef) => Provider;
  /**
   * `--batch`: judge calls go through the providers' batch APIs at half price, resumably (see
   * BatchJudging); conversations whose answers are not back yet wait for a later run.
   */
  batch?: boolean;
}

/** A conversation as the output lists it: where it is in the log, and its id masked. */
export interface ConversationRef {
  source: string;
  conversation: string;
}

export interface PlannedConversation extends ConversationRef {
  metrics: string[];
  estimated_usd: number | null;
}

export interface JudgedConversation extends ConversationRef {
  status: 'judged' | 'error';
  scores: Array<{ metric: string; score: number | null; passed: boolean; error: boolean }>;
  cost_usd: number | null;
}

export interface MonitorOutcome {
  suite: string;
  /** Sampled conversations of the window. */
  sampled: number;
  already_judged: number;
  refused: Array<ConversationRef & { reason: string }>;
  /** What a dry run would judge (and what a real run set out to judge). */
  planned: PlannedConversation[];
  /** null when a judge model has no known price. */
  estimated_usd: number | null;
  judged: JudgedConversation[];
  skipped_for_budget: ConversationRef[];
  spent_usd: number | null;
  /** Input tokens of the judge calls read from the providers' prompt caches, and what that saved (USD; null when unpriced). */
  cached_input_tokens: number;
  cache_saving_usd: number | null;
  pushed_scores: number;
  /** `--batch` only: the batches this run submitted, collected or found still in progress, and the conversations waiting for them. */
  batch: { batches: BatchState[]; waiting: ConversationRef[] } | null;
  windows: MetricWindowComparison[];
  alerts: string[];
  /** 1 when there is an alert, else 0. */
  exit_code: 0 | 1;
}

const PRODUCTION_PROMPT_VERSION = 'production';
const SAVES_PER_TRANSACTION = 250;

/**
 * `parley monitor` (online sampling, seed 000 Phase 2): judges the sampled production
 * conversations not judged before with the suite's judge metrics (verdict cache, budget,
 * cross-check sample and votes on failing verdicts as in runs), after masking them with the
 * suite's redactor, and refusing conversations of restricted verticals without redaction extras
 * (they are listed and left unjudged). Stores the scores, pushes them to Langfuse when asked, and
 * compares the window with the previous ones.
 */
export async function monitorConversations(input: MonitorInput): Promise<MonitorOutcome> {
  const { suite, redactor } = input;
  const primary = suite.config.judge?.primary;
  if (primary === undefined) throw new ConfigError({ file: suite.file, message: 'parley monitor judges with the suite\'s judge: add judge: { primary: { provider: …, model: … } } to parley.yaml' });
  const agent = chooseAgent(suite, input.agent, 'the conversations were with');
  const catalog = judgeMetricCatalog(suite.customMetrics);
  const suiteName = suite.config.suite;
  const now = input.clock.now();
  // Batch calls cost half: every figure (estimate, budget, spend) uses the batch price.
  const pricing = input.batch ? batchPrices(suite.config.pricing) : suite.config.pricing;
  const store = openMonitorStore(input.storePath);
  try {
    const judgedBefore = store.judgedAmong(suiteName, input.conversations.map(({ value }) => value.conversation_id));
    const refused: MonitorOutcome['refused'] = [];
    const planned: Array<PlannedConversation & { conversation_data: LoggedConversation; expectations: Expectation[]; masked: ReturnType<typeof productionTranscript>; scoped: Redactor }> = [];
    for (const { line, value } of input.conversations) {
      if (judgedBefore.has(value.conversation_id)) continue;
      const scoped = redactor.withNames([
        ...redactor.namesIn(value),
        ...value.turns.flatMap((turn) => (turn.role === 'tool' ? redactor.namesIn(turn.content) : [])),
      ]);
      const ref = { source: `${input.logsFile}:${line}`, conversation: scoped.text(value.conversation_id) };
      const restricted = restrictedVerticalProblem(suite.config.redaction, value.vertical);
      if (restricted !== undefined) {
        refused.push({ ...ref, reason: restricted });
        continue;
      }
      const masked = scoped.transcript(productionTranscript(value));
      const expectations = monitoredExpectations({ suite, agent, catalog, extraMetrics: input.metrics ?? [], language: value.language });
      const metricInput = { transcript: masked, scenario: { id: value.conversation_id, ...(value.language !== undefined ? { language: value.language } : {}) } };
      const estimates = expectations.map((expectation) => {
        const metric = catalog.get(expectation.metric)!;
        const parsed = metric.params.safeParse(metricParamsOf(expectation));
        return parsed.success ? estimateJudgeCost(metric, metricInput, parsed.data, primary, pricing) : 0;
      });
      planned.push({
        ...ref,
        metrics: expectations.map((expectation) => expectation.metric),
        estimated_usd: estimates.some((estimate) => estimate === null) ? null : estimates.reduce<number>((sum, estimate) => sum + estimate!, 0),
        conversation_data: value,
        expectations,
        masked,
        scoped,
      });
    }
    const estimated = planned.some((item) => item.estimated_usd === null) ? null : planned.reduce((sum, item) => sum + item.estimated_usd!, 0);
    const base = {
      suite: suiteName,
      sampled: input.conversations.length,
      already_judged: judgedBefore.size,
      refused,
      planned: planned.map(({ source, conversation, metrics, estimated_usd }) => ({ source, conversation, metrics, estimated_usd })),
      estimated_usd: estimated,
    };
    if (input.dryRun) {
      return { ...base, judged: [], skipped_for_budget: [], spent_usd: 0, cached_input_tokens: 0, cache_saving_usd: 0, pushed_scores: 0, batch: null, windows: [], alerts: [], exit_code: 0 };
    }

    let spent: number | null = 0;
    let cachedTokens = 0;
    let cacheSaving: number | null = 0;
    const limit = input.budgetUsd;
    const budget: BudgetView = {
      get exhausted() {
        return limit !== undefined && spent !== null && spent >= limit;
      },
      get spentUsd() {
        return spent ?? 0;
      },
      limitUsd: limit ?? Number.POSITIVE_INFINITY,
    };
    const cache = openJudgeCache(input.storePath, () => input.clock.now());
    const newJudgeRun = (): JudgeRun =>
      new JudgeRun({
        judge: { ...suite.config.judge, primary },
        catalog,
        mode: 'live',
        cache,
        readCache: true,
        seed: input.seed ?? 0,
        scenarioIds: planned.map((item) => item.conversation_data.conversation_id),
        ...(limit !== undefined ? { budget } : {}),
        clock: input.clock,
        ...(pricing ? { pricing } : {}),
      });
    const timeout = suite.config.settings?.timeout_ms !== undefined ? { timeoutMs: suite.config.settings.timeout_ms } : {};
    const batchStore = input.batch ? openMonitorBatchStore(input.storePath) : undefined;
    const batching =
      batchStore !== undefined
        ? new BatchJudging({
            suite: suiteName,
            store: batchStore,
            clock: input.clock,
            clientFor: (model) =>
              createBatchClient({ kind: model.provider, ...(model.base_url ? { baseUrl: model.base_url } : {}), ...(model.api_key_env ? { apiKeyEnv: model.api_key_env } : {}), ...timeout }, input.env),
          })
        : undefined;
    const providers = new Map<string, Provider>();
    const providerOf = (model: ModelRef): Provider => {
      const key = `${model.provider}:${model.model}:${model.base_url ?? ''}`;
      let provider = providers.get(key);
      if (provider === undefined) {
        provider = batching?.provider(model) ?? input.judgeProvider?.(model) ?? liveJudgeProvider(model, input.env, timeout);
        providers.set(key, provider);
      }
      return provider;
    };
    const judged: JudgedConversation[] = [];
    // Judged conversations are stored in transactions of SAVES_PER_TRANSACTION (one commit each
    // cost more than the rest of the state path); those not stored yet when a run dies are judged
    // again next time, from the verdict cache, which every verdict is written to at once.
    const unsaved: MonitoredConversation[] = [];
    const skipped: ConversationRef[] = [];
    const waiting: typeof planned = [];
    const pushed: LangfuseScore[] = [];
    const batches = new Map<string, BatchState>();
    const noteBatches = (states: readonly BatchState[]) => {
      for (const state of states) {
        // A batch submitted in this run and still in progress stays "submitted".
        if (!(state.state === 'in_progress' && batches.get(state.batch_id)?.state === 'submitted')) batches.set(state.batch_id, state);
      }
    };
    const judgeAll = async (items: typeof planned, judgeRun: JudgeRun): Promise<void> => {
      const queue = [...items];
      const worker = async (): Promise<void> => {
        for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
          if (budget.exhausted) {
            skipped.push({ source: item.source, conversation: item.conversation });
            continue;
          }
          let conversationCost: number | null = 0;
          let conversationCached = 0;
          let conversationSaving: number | null = 0;
          let waitsForBatch = false;
          const metered = (model: ModelRef): Provider => {
            const inner = meteredProvider(providerOf(model), (call) => {
              const usd = costOfCall(call.model, call.usage, pricing);
              conversationCost = conversationCost === null || usd === null ? null : conversationCost + usd;
              if ((call.usage.cached_input_tokens ?? 0) > 0 || (call.usage.cache_write_input_tokens ?? 0) > 0) {
                const saving = cacheSavingOfCall(call.model, call.usage, pricing);
                conversationCached += call.usage.cached_input_tokens ?? 0;
                conversationSaving = conversationSaving === null || saving === null ? null : conversationSaving + saving;
              }
            });
            return {
              async complete(request, context, signal) {
                try {
                  return await inner.complete(request, context, signal);
                } catch (error) {
                  if (error instanceof BatchPendingError) waitsForBatch = true;
                  throw error;
                }
              },
            };
          };
          const conversation = item.conversation_data;
          const results = await judgeRun.judgeScenario({
            scenario: { id: conversation.conversation_id, ...(conversation.language !== undefined ? { language: conversation.language } : {}) },
            transcript: item.masked,
            expectations: item.expectations,
            promptVersion: promptVersionOf(conversation) ?? PRODUCTION_PROMPT_VERSION,
            provider: metered,
          });
          if (waitsForBatch) {
            waiting.push(item);
            continue;
          }
          spent = spent === null || conversationCost === null ? null : spent + conversationCost;
          cachedTokens += conversationCached;
          cacheSaving = cacheSaving === null || conversationSaving === null ? null : cacheSaving + conversationSaving;
          const status = results.some((result) => result.error === true) ? 'error' : 'judged';
          const end = conversationEnd(conversation);
          const scores = results.map((result) => storedScore(result, item.scoped, modelVersion(primary)));
          unsaved.push({
            suite: suiteName,
            conversation_id: conversation.conversation_id,
            ended_at: end?.toISOString() ?? null,
            judged_at: input.clock.now().toISOString(),
            tenant: conversation.tenant ?? null,
            prompt_version: promptVersionOf(conversation) ?? null,
            status,
            cost_usd: conversationCost,
            scores,
          });
          if (unsaved.length >= SAVES_PER_TRANSACTION) store.saveAll(unsaved.splice(0));
          judged.push({
            source: item.source,
            conversation: item.conversation,
            status,
            scores: results.map((result) => ({ metric: result.metric, score: result.score, passed: result.passed, error: result.error === true })),
            cost_usd: conversationCost,
          });
          if (input.langfuse) pushed.push(...langfuseScores(conversation, scores));
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency ?? suite.config.settings?.concurrency ?? 4, items.length)) }, worker));
    };
    try {
      if (batching === undefined) await judgeAll(planned, newJudgeRun());
      else {
        // Answers of batches that ended since the last run first; then judge, send what is still
        // unanswered, and go round again while a batch comes back during this run.
        noteBatches(await batching.collect());
        let pending = planned;
        for (;;) {
          waiting.length = 0;
          await judgeAll(pending, newJudgeRun());
          if (batching.unsent === 0) break;
          noteBatches(await batching.submit());
          const states = await batching.collect();
          noteBatches(states);
          if (!states.some((state) => state.state === 'collected')) break;
          pending = [...waiting];
        }
      }
    } finally {
      store.saveAll(unsaved.splice(0));
      cache.close();
      batchStore?.close();
    }
    if (input.langfuse && pushed.length > 0) await pushScores(input.langfuse, pushed, input.langfuseOptions);

    const floors = new Map<string, number | null>();
    for (const item of planned) for (const expectation of item.expectations) floors.set(expectation.metric, metricFloor(expectation, suite, catalog.get(expectation.metric)));
    for (const expectation of monitoredExpectations({ suite, agent, catalog, extraMetrics: input.metrics ?? [], language: undefined })) {
      if (!floors.has(expectation.metric)) floors.set(expectation.metric, metricFloor(expectation, suite, catalog.get(expectation.metric)));
    }
    const windowStart = new Date(now.getTime() - input.windowMs);
    const previousStart = new Date(windowStart.getTime() - input.windowMs * input.previousWindows);
    const end = new Date(now.getTime() + 1);
    const windows = compareWindows(
      store.scoresBetween(suiteName, windowStart.toISOString(), end.toISOString()),
      store.scoresBetween(suiteName, previousStart.toISOString(), windowStart.toISOString()),
      floors,
      input.comparison ?? DEFAULT_WINDOW_COMPARISON,
    );
    const alerts = windows.flatMap((window) => window.alerts);
    return {
      ...base,
      judged: judged.sort((left, right) => compareSource(left.source, right.source)),
      skipped_for_budget: skipped,
      spent_usd: spent,
      cached_input_tokens: cachedTokens,
      cache_saving_usd: cacheSaving,
      pushed_scores: pushed.length,
      batch: batching === undefined ? null : { batches: [...batches.values()], waiting: waiting.map(({ source, conversation }) => ({ source, conversation })).sort((left, right) => compareSource(left.source, right.source)) },
      windows,
      alerts,
      exit_code: alerts.length > 0 ? 1 : 0,
    };
  } finally {
    store.close();
  }
}

function storedScore(result: MetricResult, redactor: Redactor, judgeModel: string): MonitorScore {
  return {
    metric: result.metric,
    metric_version: result.version,
    score: result.score,
    threshold: result.threshold,
    passed: result.passed,
    error: result.error === true,
    reason: redactor.text(result.reason),
    judge_model: judgeModel,
  };
}

/** The scores are stored already; Langfuse not taking them after the retries is said as a configuration problem, as reading does. */
async function pushScores(target: LangfuseTarget, scores: readonly LangfuseScore[], options: SendScoresOptions | undefined): Promise<void> {
  try {
    await sendLangfuseScores(target, scores, options);
  } catch (error) {
    if (error instanceof LangfuseError) throw new ConfigError(`pushing scores to Langfuse failed: ${error.message}`);
    throw error;
  }
}

/** The conversation's judged metrics as Langfuse scores on its trace (errors are not sent). */
function langfuseScores(conversation: LoggedConversation, scores: readonly MonitorScore[]): LangfuseScore[] {
  return scores
    .filter((score) => !score.error)
    .map((score) => ({
      id: monitorScoreId(conversation.conversation_id, score.metric, score.metric_version),
      traceId: conversation.trace_id ?? conversation.conversation_id,
      name: score.metric,
      value: score.score ?? (score.passed ? 1 : 0),
      dataType: score.score === null ? ('BOOLEAN' as const) : ('NUMERIC' as const),
      comment: score.reason,
      metadata: { passed: score.passed, threshold: score.threshold, metric_version: score.metric_version, judge_model: score.judge_model, source: 'parley monitor' },
    }));
}

function promptVersionOf(conversation: LoggedConversation): string | undefined {
  const value: unknown = (conversation as Record<string, unknown>)['prompt_version'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function compareSource(left: string, right: string): number {
  const [leftLine, rightLine] = [Number(left.slice(left.lastIndexOf(':') + 1)), Number(right.slice(right.lastIndexOf(':') + 1))];
  return leftLine - rightLine;
}
