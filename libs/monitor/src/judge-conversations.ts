import type { LoadedSuite, ModelRef } from '@parley/config';
import type { MetricResult, Provider } from '@parley/core';
import { JudgeRun, liveJudgeProvider, modelVersion } from '@parley/judge';
import { conversationEnd, type LoggedConversation } from '@parley/production';
import { createBatchClient, meteredProvider, ProviderError } from '@parley/providers';
import type { Redactor } from '@parley/redaction';
import { abandonedHere, claimHolder, openJudgeCache, openJudgeSpend, openMonitorBatchStore, type MonitoredConversation, type MonitorScore, type MonitorStore } from '@parley/store';
import { BatchJudging, BatchPendingError, type BatchState } from './batch-judging.js';
import { JudgeSpend } from './judge-spend.js';
import type { ConversationRef, JudgedConversation, MonitorInput, MonitorOutcome } from './monitor-outcome.js';
import type { MonitorPlan, MonitorSetup, PlannedJudging } from './plan-monitoring.js';
import { scoreDeliveries } from './send-scores.js';

/** What the judge phase came to. */
export interface JudgedWindow {
  /** In the order of the log. */
  judged: JudgedConversation[];
  skipped_for_budget: ConversationRef[];
  /** Planned conversations not judged because the run was interrupted (the next run judges them). */
  not_judged: ConversationRef[];
  /** Planned conversations another monitor process was judging, or judged meanwhile (its claim came first). */
  left_to_others: ConversationRef[];
  spend: JudgeSpend;
  batch: MonitorOutcome['batch'];
}

const PRODUCTION_PROMPT_VERSION = 'production';
const SAVES_PER_TRANSACTION = 250;
/**
 * How long a claim on a conversation holds (MonitorStore.claim): it lasts until the conversation is
 * saved, which may be SAVES_PER_TRANSACTION conversations later. A process that died leaves its
 * claims to the next run after this; one merely slower than this is joined by another process,
 * whose judge requests then come from the verdict cache the first one wrote.
 */
const JUDGING_LEASE_MS = 30 * 60_000;

/**
 * The judge phase: judges the planned conversations with the suite's judge metrics (verdict
 * cache, budget, cross-check sample and votes on failing verdicts as in runs) and stores each
 * judged conversation. Under `--batch` the answers of batches that ended since the last run come
 * first; then it judges, sends what is still unanswered, and goes round again while a batch comes
 * back during this run.
 */
export async function judgeConversations(input: MonitorInput, setup: MonitorSetup, plan: MonitorPlan, store: MonitorStore): Promise<JudgedWindow> {
  const { suite } = input;
  const spend = new JudgeSpend(setup.pricing, setup.normalPricing);
  // What was paid and not yet recorded for `parley cost`: recorded each time judged conversations are saved, and at the end.
  let unrecorded = new JudgeSpend(setup.pricing, setup.normalPricing);
  const spendStore = openJudgeSpend(input.storePath);
  const recordSpend = (): void => {
    spendStore.add('monitor', setup.suiteName, input.clock.now().toISOString(), unrecorded.models());
    unrecorded = new JudgeSpend(setup.pricing, setup.normalPricing);
  };
  const limit = input.budgetUsd;
  const budget = spend.budget(limit);
  const cache = openJudgeCache(input.storePath, () => input.clock.now());
  const newJudgeRun = (): JudgeRun =>
    new JudgeRun({
      judge: { ...suite.config.judge, primary: setup.primary },
      catalog: setup.catalog,
      mode: 'live',
      cache,
      readCache: true,
      seed: input.seed ?? 0,
      scenarioIds: plan.planned.map((item) => item.conversation_data.conversation_id),
      ...(limit !== undefined ? { budget } : {}),
      clock: input.clock,
      ...(setup.pricing ? { pricing: setup.pricing } : {}),
    });
  const timeout = suite.config.settings?.timeout_ms !== undefined ? { timeoutMs: suite.config.settings.timeout_ms } : {};
  const batchStore = input.batch ? openMonitorBatchStore(input.storePath) : undefined;
  const batching =
    batchStore !== undefined
      ? new BatchJudging({
          suite: setup.suiteName,
          store: batchStore,
          clock: input.clock,
          judgeModels: suiteJudgeModels(suite.config.judge, setup.primary),
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
  const skipped: ConversationRef[] = [];
  const notJudged: ConversationRef[] = [];
  const leftToOthers: ConversationRef[] = [];
  const holder = claimHolder();
  // Conversations this run claimed and did not save (interrupted, waiting for a batch): given back at the end.
  const claimedUnsaved = new Set<string>();
  const waiting: PlannedJudging[] = [];
  const saves = monitoredSaves(store, recordSpend);
  const batches = new Map<string, BatchState>();
  const noteBatches = (states: readonly BatchState[]) => {
    for (const state of states) {
      // A batch submitted in this run and still in progress stays "submitted".
      if (!(state.state === 'in_progress' && batches.get(state.batch_id)?.state === 'submitted')) batches.set(state.batch_id, state);
    }
  };
  const judgeAll = async (items: readonly PlannedJudging[], judgeRun: JudgeRun): Promise<void> => {
    const queue = [...items];
    const worker = async (): Promise<void> => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        // Interrupted: no new conversation is started; what was judged is saved below.
        if (input.signal?.aborted) {
          notJudged.push({ source: item.source, conversation: item.conversation });
          continue;
        }
        if (budget.exhausted) {
          skipped.push({ source: item.source, conversation: item.conversation });
          continue;
        }
        // Claimed (and committed) before judging: a monitor job running at the same time judges the others.
        const conversationId = item.conversation_data.conversation_id;
        if (store.claim(setup.suiteName, conversationId, holder, input.clock.now().getTime(), JUDGING_LEASE_MS, abandonedHere) !== 'claimed') {
          leftToOthers.push({ source: item.source, conversation: item.conversation });
          continue;
        }
        claimedUnsaved.add(conversationId);
        const answer = await judgeOne(item, judgeRun, providerOf, setup, input.signal);
        if (input.signal?.aborted) {
          // Cut short by the signal: its answered calls are paid (and their verdicts cached, so
          // the next run does not pay again), but the conversation is not judged until it is whole.
          spend.add(answer.spend);
          unrecorded.add(answer.spend);
          notJudged.push({ source: item.source, conversation: item.conversation });
          continue;
        }
        if (answer.waitsForBatch) {
          waiting.push(item);
          continue;
        }
        spend.add(answer.spend);
        unrecorded.add(answer.spend);
        claimedUnsaved.delete(conversationId);
        const conversation = item.conversation_data;
        const status = answer.results.some((result) => result.error === true) ? 'error' : 'judged';
        const scores = answer.results.map((result) => storedScore(result, item.scoped, modelVersion(setup.primary)));
        const judgedAt = input.clock.now().toISOString();
        saves.save({
          suite: setup.suiteName,
          conversation_id: conversation.conversation_id,
          ended_at: conversationEnd(conversation)?.toISOString() ?? null,
          judged_at: judgedAt,
          tenant: conversation.tenant ?? null,
          prompt_version: promptVersionOf(conversation) ?? null,
          status,
          cost_usd: answer.spend.usd,
          scores,
          // The scores owed to Langfuse go into the outbox with the conversation (the send phase delivers them).
          ...(input.langfuse ? { deliveries: scoreDeliveries(input.langfuse, setup.suiteName, conversation, scores, judgedAt) } : {}),
        });
        judged.push({
          source: item.source,
          conversation: item.conversation,
          status,
          scores: scores.map((score) => ({ metric: score.metric, score: score.score, passed: score.passed, error: score.error, ...(score.error ? { reason: score.reason } : {}) })),
          cost_usd: answer.spend.usd,
        });
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency ?? suite.config.settings?.concurrency ?? 4, items.length)) }, worker));
  };
  try {
    if (batching === undefined) await judgeAll(plan.planned, newJudgeRun());
    else {
      noteBatches(await batching.collect());
      let pending = plan.planned;
      for (;;) {
        waiting.length = 0;
        await judgeAll(pending, newJudgeRun());
        if (batching.unsent === 0 || input.signal?.aborted) break;
        noteBatches(await batching.submit());
        const states = await batching.collect();
        noteBatches(states);
        if (!states.some((state) => state.state === 'collected')) break;
        pending = [...waiting];
      }
    }
  } finally {
    saves.close();
    store.release(setup.suiteName, [...claimedUnsaved], holder);
    recordSpend();
    spendStore.close();
    cache.close();
    batchStore?.close();
  }
  return {
    judged: judged.sort((left, right) => compareSource(left.source, right.source)),
    skipped_for_budget: skipped,
    not_judged: notJudged.sort((left, right) => compareSource(left.source, right.source)),
    left_to_others: leftToOthers.sort((left, right) => compareSource(left.source, right.source)),
    spend,
    batch: batching === undefined ? null : { batches: [...batches.values()], waiting: waiting.map(({ source, conversation }) => ({ source, conversation })).sort((left, right) => compareSource(left.source, right.source)) },
  };
}

/** Judges one conversation; its calls are metered into its own spend, and a call that waits for a batch is noted. */
async function judgeOne(
  item: PlannedJudging,
  judgeRun: JudgeRun,
  providerOf: (model: ModelRef) => Provider,
  setup: MonitorSetup,
  interrupt: AbortSignal | undefined,
): Promise<{ results: MetricResult[]; spend: JudgeSpend; waitsForBatch: boolean }> {
  const spend = new JudgeSpend(setup.pricing, setup.normalPricing);
  let waitsForBatch = false;
  const metered = (model: ModelRef): Provider => {
    const inner = meteredProvider(providerOf(model), (call) => spend.addCall(call));
    return {
      async complete(request, context, signal) {
        // After the signal no call starts (a vote or the next metric of this conversation), and calls in flight are aborted.
        if (interrupt?.aborted) throw new ProviderError('aborted', 'interrupted before the call', { context });
        const both = interrupt === undefined ? signal : signal === undefined ? interrupt : AbortSignal.any([signal, interrupt]);
        try {
          return await inner.complete(request, context, both);
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
    ...(interrupt !== undefined ? { signal: interrupt } : {}),
  });
  return { results, spend, waitsForBatch };
}

/**
 * Judged conversations are stored in transactions of SAVES_PER_TRANSACTION (one commit each cost
 * more than the rest of the state path); those not stored yet when a run dies are judged again
 * next time, from the verdict cache, which every verdict is written to at once.
 */
function monitoredSaves(store: MonitorStore, saved: () => void): { save(conversation: MonitoredConversation): void; close(): void } {
  const unsaved: MonitoredConversation[] = [];
  return {
    save(conversation) {
      unsaved.push(conversation);
      if (unsaved.length >= SAVES_PER_TRANSACTION) {
        store.saveAll(unsaved.splice(0));
        saved();
      }
    },
    close() {
      store.saveAll(unsaved.splice(0));
    },
  };
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

/** Every judge model the suite names (primary, cross-check, a voting panel), the primary first. */
function suiteJudgeModels(judge: LoadedSuite['config']['judge'], primary: ModelRef): ModelRef[] {
  const panel = Array.isArray(judge?.votes_on_fail) ? judge.votes_on_fail : [];
  return [primary, ...(judge?.cross_check ? [judge.cross_check] : []), ...panel];
}

function promptVersionOf(conversation: LoggedConversation): string | undefined {
  const value: unknown = (conversation as Record<string, unknown>)['prompt_version'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function compareSource(left: string, right: string): number {
  const [leftLine, rightLine] = [Number(left.slice(left.lastIndexOf(':') + 1)), Number(right.slice(right.lastIndexOf(':') + 1))];
  return leftLine - rightLine;
}
