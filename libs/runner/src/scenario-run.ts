import { isAbsolute, join, relative } from 'node:path';
import type { CallRecord, ModelPrice } from '@parley/providers';
import {
  costOfCall,
  createLiveProvider,
  createRecorder,
  createReplayProvider,
  isProviderError,
  meteredProvider,
  readRecording,
  recordingPath,
  recordingProvider,
  writeRecording,
} from '@parley/providers';
import type { Clock, CostSummary, MetricResult, Provider, RunMode, ScenarioResult, TranscriptTurn } from '@parley/core';
import { emptyCost } from '@parley/core';
import type { LoadedScenario, LoadedSuite } from '@parley/config';
import { runPromptConversation, type ConversationOutcome } from '@parley/engine';
import { evaluateExpectation } from '@parley/metrics';
import { scenarioStatus } from '@parley/gate';
import { builtInMetrics } from './metric-catalog.js';
import type { ScenarioSession } from './session.js';

export interface ScenarioRunContext {
  suite: LoadedSuite;
  mode: RunMode;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  /** Makes the live provider of an agent; injectable so tests can count or wrap calls. */
  liveProvider?: (kind: 'openai' | 'anthropic' | 'openai-compatible', baseUrl: string | undefined, apiKeyEnv: string | undefined) => Provider;
  signal?: AbortSignal;
  onTurn?: (turn: TranscriptTurn) => void;
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
    scenario_id: data.id,
    ...(data.title !== undefined ? { title: data.title } : {}),
    agent: agentName,
    gate: scenario.gate,
    tags: data.tags,
    ...(data.language !== undefined ? { language: data.language } : {}),
    metadata_only: data.metadata_only,
    session: { conversation_id: session.conversation_id, tenant: session.tenant },
  };
  const errorResult = (kind: string, message: string, details?: string, transcript?: ConversationOutcome['transcript']): ScenarioResult => ({
    ...base,
    status: 'error',
    reason: message,
    metrics: [],
    ...(transcript ? { transcript } : {}),
    cost: summariseCost(calls, suite.config.pricing),
    error: { kind, message, ...(details !== undefined ? { details } : {}) },
  });

  if (!agent) return errorResult('config', `unknown agent "${agentName}"`);
  if (agent.kind === 'http' || agent.kind === 'command' || agent.kind === 'module') {
    return errorResult('unsupported', `agent kind "${agent.kind}" cannot be run by this version of Parley yet`);
  }
  if (data.user.simulate) {
    return errorResult('unsupported', 'user.simulate needs the LLM user simulator, which this version of Parley does not have yet');
  }

  const recordingFile = recordingPath(recordingsDir(suite), data.id);
  const recorder = context.mode === 'record' ? createRecorder(context.clock) : undefined;
  let provider: Provider;
  try {
    if (context.mode === 'replay') {
      provider = createReplayProvider(readRecording(recordingFile), relativeToSuite(suite, recordingFile));
    } else {
      const live = context.liveProvider
        ? context.liveProvider(agent.kind, agent.base_url, agent.api_key_env)
        : createLiveProvider(
            {
              kind: agent.kind,
              ...(agent.base_url ? { baseUrl: agent.base_url } : {}),
              ...(agent.api_key_env ? { apiKeyEnv: agent.api_key_env } : {}),
              ...(suite.config.settings?.timeout_ms ? { timeoutMs: suite.config.settings.timeout_ms } : {}),
            },
            context.env,
          );
      provider = recorder ? recordingProvider(live, recorder) : live;
    }
  } catch (error) {
    return errorResult('recording', (error as Error).message);
  }
  provider = meteredProvider(provider, (call) => calls.push(call));

  const outcome = await runPromptConversation({
    scenario: data,
    agent,
    systemPrompt: suite.agentPrompts[agentName]?.text,
    tools: suite.agentTools[agentName] ?? [],
    provider,
    ...(context.signal ? { signal: context.signal } : {}),
    ...(context.onTurn ? { onTurn: context.onTurn } : {}),
  });

  if (recorder && outcome.error === undefined) writeRecording(recordingFile, recorder.entries);

  if (outcome.error !== undefined) {
    const error = outcome.error;
    if (isProviderError(error)) return errorResult(error.kind, error.message, error.details, outcome.transcript);
    return errorResult('conversation', (error as Error).message ?? String(error), undefined, outcome.transcript);
  }

  const metrics = evaluateMetrics(scenario, outcome.transcript);
  const verdict = scenarioStatus({ metrics });
  return {
    ...base,
    status: verdict.status,
    reason: verdict.reason,
    metrics,
    transcript: outcome.transcript,
    cost: summariseCost(calls, suite.config.pricing),
  };
}

function evaluateMetrics(scenario: LoadedScenario, transcript: ConversationOutcome['transcript']): MetricResult[] {
  const catalog = builtInMetrics();
  const input = {
    transcript,
    scenario: { id: scenario.data.id, ...(scenario.data.language ? { language: scenario.data.language } : {}) },
  };
  return scenario.expectations.map((expectation) => {
    const metric = catalog[expectation.metric];
    if (!metric) {
      return {
        metric: expectation.metric,
        version: 'unknown',
        score: null,
        threshold: expectation.threshold ?? null,
        passed: false,
        error: true,
        reason: `metric "${expectation.metric}" needs an LLM judge, which this version of Parley cannot run yet`,
      };
    }
    return evaluateExpectation(metric, input, expectation);
  });
}

export function summariseCost(calls: CallRecord[], pricing: Record<string, ModelPrice> | undefined): CostSummary {
  const cost = emptyCost();
  for (const call of calls) {
    cost.calls += 1;
    cost.input_tokens += call.usage.input_tokens;
    cost.output_tokens += call.usage.output_tokens;
    const usd = costOfCall(call.model, call.usage, pricing);
    cost.usd = cost.usd === null || usd === null ? null : cost.usd + usd;
  }
  return cost;
}

export function recordingsDir(suite: LoadedSuite): string {
  return resolveInSuite(suite, suite.config.recordings);
}


function resolveInSuite(suite: LoadedSuite, path: string): string {
  return isAbsolute(path) ? path : join(suite.dir, path);
}

function relativeToSuite(suite: LoadedSuite, path: string): string {
  return relative(suite.dir, path) || path;
}
