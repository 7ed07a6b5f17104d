import type { CallRecord, ModelPrice } from '@parley/providers';
import { cacheSavingOfCall, costOfCall } from '@parley/providers';
import type { CallSummary, CostSummary, MetricResult, ScenarioResult } from '@parley/core';
import { emptyCost } from '@parley/core';
import type { Expectation, LoadedScenario } from '@parley/config';
import type { ConversationOutcome, ModuleMetricThreads } from '@parley/engine';
import { evaluateExpectation } from '@parley/metrics';
import { scenarioStatus } from '@parley/gate';
import type { MetricGate } from './baseline-gating.js';
import { playScenario, type ConversationContext } from './scenario-conversation.js';
import { unevaluatedExpectation } from './unevaluated-expectation.js';
import { builtInMetrics } from './metric-catalog.js';
import { evaluateCodeMetric } from './code-metric-run.js';
import type { ScenarioSession } from './session.js';
import { createCassette, type ScenarioCassette } from './cassette.js';
import type { RunJudging } from './run-judging.js';

/** What a scenario needs from its run (see ConversationContext for the live-call parts). */
export type ScenarioRunContext = ConversationContext & {
  /** Applied to the metric results before the status is decided: `--baseline` gating (see baseline-gating.ts). */
  gateMetrics?: MetricGate;
  /** The run's LLM judges (see run-judging.ts); judge metrics are errors without it. */
  judging?: RunJudging;
  /** The run's module metric threads, one per metric (see ModuleMetricThreads); without it each evaluation starts its own. */
  codeMetricThreads?: ModuleMetricThreads;
};

/** What a scenario's result says of the scenario itself: id, title, agent, gate, tags, language, a variant's values. */
export function resultIdentity(scenario: LoadedScenario): Pick<ScenarioResult, 'scenario_id' | 'title' | 'agent' | 'gate' | 'tags' | 'language' | 'vars' | 'metadata_only'> {
  const data = scenario.data;
  return {
    scenario_id: data.id,
    ...(data.title !== undefined ? { title: data.title } : {}),
    agent: data.agent,
    gate: scenario.gate,
    tags: data.tags,
    ...(data.language !== undefined ? { language: data.language } : {}),
    ...(scenario.variant !== undefined ? { vars: { ...scenario.variant.vars } } : {}),
    metadata_only: data.metadata_only,
  };
}

/** Runs one scenario end to end: conversation, metrics, status, cost. Never throws for the scenario's own failures. */
export async function runScenario(
  scenario: LoadedScenario,
  session: ScenarioSession,
  context: ScenarioRunContext,
): Promise<ScenarioResult> {
  const { suite } = context;
  const data = scenario.data;
  const agentName = data.agent;
  const agent = suite.config.agents[agentName];
  const calls: CallRecord[] = [];
  const base: Omit<ScenarioResult, 'status' | 'reason' | 'metrics' | 'cost'> = {
    ...resultIdentity(scenario),
    session: { conversation_id: session.conversation_id, tenant: session.tenant },
  };
  const errorResult = (kind: string, message: string, details?: string, transcript?: ConversationOutcome['transcript']): ScenarioResult => ({
    ...base,
    status: 'error',
    reason: message,
    metrics: [],
    ...(transcript ? { transcript } : {}),
    cost: summariseCost(calls, suite.config.pricing),
    calls: callSummaries(calls, suite.config.pricing),
    error: { kind, message, ...(details !== undefined ? { details } : {}) },
  });

  if (!agent) return errorResult('config', `unknown agent "${agentName}"`);

  // Agent kinds, simulator, isolation hooks, resilience and recording: see scenario-conversation.ts.
  // One cassette per scenario (shared by the attempts of --repeat): the judge's calls are replayed
  // from, and recorded into, the same recording as the conversation's.
  const withCassette = { ...context, cassette: context.cassette ?? createCassette() };
  const played = await playScenario(scenario, session, withCassette, calls);
  if (played.kind === 'error') return errorResult(played.error.kind, played.error.message, played.error.details, played.transcript);
  const outcome = played.outcome;

  const expectations = context.judging ? context.judging.expectationsOf(scenario) : scenario.expectations;
  const evaluated = await evaluateMetrics(scenario, expectations, outcome.transcript, withCassette, calls);
  const metrics = context.gateMetrics ? context.gateMetrics(scenario, evaluated) : evaluated;
  // An expectation marked `gate: advisory` can only lower its scenario to warn, never fail it.
  const verdict = scenarioStatus({ metrics, blockingMetrics: expectations.map((expectation) => expectation.gate !== 'advisory') });
  return {
    ...base,
    status: verdict.status,
    reason: verdict.reason,
    metrics,
    transcript: outcome.transcript,
    cost: summariseCost(calls, suite.config.pricing),
    calls: callSummaries(calls, suite.config.pricing),
  };
}

/**
 * One result per expectation, in order: deterministic metrics and metrics written in code here
 * (code metrics one after another, each in its own thread or process), judge metrics through the
 * run's judging (one batch per scenario, so the judge calls keep a stable order in recordings).
 */
async function evaluateMetrics(
  scenario: LoadedScenario,
  expectations: readonly Expectation[],
  transcript: ConversationOutcome['transcript'],
  context: ScenarioRunContext & { cassette: ScenarioCassette },
  calls: CallRecord[],
): Promise<MetricResult[]> {
  const catalog = builtInMetrics();
  const input = {
    transcript,
    scenario: { id: scenario.data.id, ...(scenario.data.language ? { language: scenario.data.language } : {}) },
  };
  const codeMetrics = new Map(context.suite.codeMetrics.map((metric) => [metric.data.name, metric]));
  const results: Array<MetricResult | undefined> = [];
  for (const expectation of expectations) {
    const metric = catalog[expectation.metric];
    const code = codeMetrics.get(expectation.metric);
    if (metric) results.push(evaluateExpectation(metric, input, expectation));
    else if (code) results.push(await evaluateCodeMetric(code, expectation, scenario, transcript, context));
    else if (context.judging?.isJudgeMetric(expectation.metric)) results.push(undefined);
    else results.push(unevaluatedExpectation(expectation, `metric "${expectation.metric}" needs an LLM judge, which this version of Parley cannot run yet`));
  }
  const toJudge = expectations.filter((_, index) => results[index] === undefined);
  if (toJudge.length === 0 || !context.judging) return results.filter((result): result is MetricResult => result !== undefined);
  const verdicts = await context.judging.judge({ scenario, expectations: toJudge, transcript, context, calls });
  let next = 0;
  return results.map((result) => result ?? verdicts[next++]!);
}

/** The provider name of a service agent's calls (serviceAgentResponder). */
const SERVICE_PROVIDER = 'service';

export function summariseCost(calls: CallRecord[], pricing: Record<string, ModelPrice> | undefined): CostSummary {
  const cost = emptyCost();
  for (const call of calls) {
    // A service agent's turns are calls for the export's spans, not model calls Parley pays for.
    if (call.provider === SERVICE_PROVIDER) continue;
    cost.calls += 1;
    cost.input_tokens += call.usage.input_tokens;
    cost.output_tokens += call.usage.output_tokens;
    const usd = costOfCall(call.model, call.usage, pricing);
    cost.usd = cost.usd === null || usd === null ? null : cost.usd + usd;
    if ((call.usage.cached_input_tokens ?? 0) > 0 || (call.usage.cache_write_input_tokens ?? 0) > 0) {
      const saving = cacheSavingOfCall(call.model, call.usage, pricing);
      cost.cached_input_tokens = (cost.cached_input_tokens ?? 0) + (call.usage.cached_input_tokens ?? 0);
      cost.cache_saving_usd = cost.cache_saving_usd === null || saving === null ? null : (cost.cache_saving_usd ?? 0) + saving;
    }
  }
  return cost;
}

/** The scenario's calls as its result keeps them (spans of an export). */
function callSummaries(calls: readonly CallRecord[], pricing: Record<string, ModelPrice> | undefined): CallSummary[] {
  return calls.map((call) => ({
    role: call.role,
    provider: call.provider,
    model: call.model,
    turn: call.turn,
    input_tokens: call.usage.input_tokens,
    output_tokens: call.usage.output_tokens,
    cost_usd: call.provider === SERVICE_PROVIDER ? null : costOfCall(call.model, call.usage, pricing),
    latency_ms: call.latency_ms,
    ...(call.usage.cached_input_tokens ? { cached_input_tokens: call.usage.cached_input_tokens } : {}),
    ...(call.usage.cache_write_input_tokens ? { cache_write_input_tokens: call.usage.cache_write_input_tokens } : {}),
    // A service agent's reply names no model and no stop reason of a provider.
    ...(call.provider !== SERVICE_PROVIDER && call.response_model ? { response_model: call.response_model } : {}),
    ...(call.provider !== SERVICE_PROVIDER && call.finish_reason ? { finish_reason: call.finish_reason } : {}),
    ...(call.provider !== SERVICE_PROVIDER && call.server ? { server_address: call.server.address, server_port: call.server.port } : {}),
  }));
}
