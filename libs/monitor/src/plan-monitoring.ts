import type { Expectation, ModelRef } from '@parley/config';
import { ConfigError, type Transcript } from '@parley/core';
import { judgeMetricCatalog, type JudgeMetric } from '@parley/judge';
import { metricParamsOf } from '@parley/metrics';
import { chooseAgent, type LoggedConversation } from '@parley/production';
import { batchPrices, type ModelPrice } from '@parley/providers';
import { restrictedVerticalProblem, type Redactor } from '@parley/redaction';
import { estimateJudgeCost } from './judge-cost-estimate.js';
import type { MonitorInput, MonitorOutcome, PlannedConversation } from './monitor-outcome.js';
import { checkMetricNames, monitoredExpectations } from './monitored-expectations.js';
import { productionTranscript } from './production-transcript.js';

/** What every phase of a monitoring run needs to know about the suite's judging. */
export interface MonitorSetup {
  suiteName: string;
  /** The suite's primary judge (monitoring judges with it). */
  primary: ModelRef;
  /** The suite's agent the conversations were with. */
  agent: string;
  catalog: ReadonlyMap<string, JudgeMetric>;
  /** The prices every figure uses: batch prices under `--batch`. */
  pricing: Record<string, ModelPrice> | undefined;
  /** Under `--batch`, the normal prices (what batch prices saved against is shown as a saving); else undefined. */
  normalPricing: Record<string, ModelPrice> | undefined;
  /** When the run started: the end of the window it compares. */
  now: Date;
}

/** A conversation to judge: its masked transcript, the expectations it is judged by, and its own redactor. */
export interface PlannedJudging extends PlannedConversation {
  conversation_data: LoggedConversation;
  expectations: Expectation[];
  masked: Transcript;
  /** The suite's redactor, with the names this conversation mentions. */
  scoped: Redactor;
}

/** The plan of a monitoring run: what it refused, what it is to judge, and the estimate (all a dry run shows). */
export interface MonitorPlan {
  outcome: Pick<MonitorOutcome, 'suite' | 'sampled' | 'already_judged' | 'refused' | 'planned' | 'estimated_usd'>;
  planned: PlannedJudging[];
}

/** The suite's judging for monitoring; a suite without a primary judge is a ConfigError. */
export function monitorSetup(input: MonitorInput): MonitorSetup {
  const { suite } = input;
  const primary = suite.config.judge?.primary;
  if (primary === undefined) throw new ConfigError({ file: suite.file, message: 'parley monitor judges with the suite\'s judge: add judge: { primary: { provider: …, model: … } } to parley.yaml' });
  const agent = chooseAgent(suite, input.agent, 'the conversations were with');
  const catalog = judgeMetricCatalog(suite.customMetrics);
  checkMetricNames(input.metrics ?? [], catalog);
  return {
    suiteName: suite.config.suite,
    primary,
    agent,
    catalog,
    now: input.clock.now(),
    // Batch calls cost half: every figure (estimate, budget, spend) uses the batch price.
    pricing: input.batch ? batchPrices(suite.config.pricing) : suite.config.pricing,
    normalPricing: input.batch ? (suite.config.pricing ?? {}) : undefined,
  };
}

/**
 * The plan phase: every sampled conversation not judged before is masked with the suite's
 * redactor (and the names it mentions), refused when its vertical is restricted without
 * redaction extras (listed, never judged), or planned with its expectations and estimated cost.
 */
export function planMonitoring(input: MonitorInput, setup: MonitorSetup, judgedBefore: ReadonlySet<string>): MonitorPlan {
  const { suite, redactor } = input;
  const refused: MonitorOutcome['refused'] = [];
  const planned: PlannedJudging[] = [];
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
    const expectations = monitoredExpectations({ suite, agent: setup.agent, catalog: setup.catalog, extraMetrics: input.metrics ?? [], language: value.language });
    planned.push({
      ...ref,
      metrics: expectations.map((expectation) => expectation.metric),
      estimated_usd: estimateConversation(setup, expectations, masked, value),
      conversation_data: value,
      expectations,
      masked,
      scoped,
    });
  }
  const estimated = planned.some((item) => item.estimated_usd === null) ? null : planned.reduce((sum, item) => sum + item.estimated_usd!, 0);
  return {
    outcome: {
      suite: setup.suiteName,
      sampled: input.conversations.length,
      already_judged: judgedBefore.size,
      refused,
      planned: planned.map(({ source, conversation, metrics, estimated_usd }) => ({ source, conversation, metrics, estimated_usd })),
      estimated_usd: estimated,
    },
    planned,
  };
}

/** What judging one conversation by these expectations should cost; null when a judge model has no price. */
function estimateConversation(setup: MonitorSetup, expectations: readonly Expectation[], masked: Transcript, conversation: LoggedConversation): number | null {
  const metricInput = { transcript: masked, scenario: { id: conversation.conversation_id, ...(conversation.language !== undefined ? { language: conversation.language } : {}) } };
  const estimates = expectations.map((expectation) => {
    const metric = setup.catalog.get(expectation.metric)!;
    const parsed = metric.params.safeParse(metricParamsOf(expectation));
    return parsed.success ? estimateJudgeCost(metric, metricInput, parsed.data, setup.primary, setup.pricing) : 0;
  });
  return estimates.some((estimate) => estimate === null) ? null : estimates.reduce<number>((sum, estimate) => sum + estimate!, 0);
}
