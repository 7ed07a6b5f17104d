import type { CallRecord, ProviderServer, RateLimiter, Recorder, RetryDependencies, Schedule } from '@parley/providers';
import { costOfCall, createLiveProvider, meteredProvider, recordingProvider, resilientProvider } from '@parley/providers';
import type { Provider, ProviderKind } from '@parley/core';
import type { LoadedSuite } from '@parley/config';
import type { ScenarioBudget } from './budget.js';
import { budgetedProvider } from './call-budget.js';

/** Makes the live provider of a model; injectable so tests can count or wrap calls. */
type LiveProviderFactory = (kind: ProviderKind, baseUrl: string | undefined, apiKeyEnv: string | undefined) => Provider;

/** What a scenario's model calls need from the run, whoever makes them (agent, simulator, judges). */
export interface ModelCallContext {
  suite: LoadedSuite;
  env: NodeJS.ProcessEnv;
  liveProvider?: LiveProviderFactory;
  /** Per provider kind, shared by every scenario of the run. */
  limiters?: ReadonlyMap<ProviderKind, RateLimiter>;
  /** Injected sleeper, jitter and timer of the retry and timeout layers (tests never wait). */
  resilience?: RetryDependencies & { schedule?: Schedule };
  /** SDK clients of the run by provider, base URL and key variable: one client serves every scenario. */
  liveProviders?: Map<string, Provider>;
  /** Told of every answered model call with its cost, as it happens (the spend per model). */
  onCall?: (call: CallRecord, usd: number | null) => void;
  /** The scenario's part of the run's budget, when one applies: every live call holds its worst case in it first. */
  budget?: ScenarioBudget;
}

/** Which model endpoint a call goes to: the provider kind, its base URL and the variable holding its key. */
export interface ModelEndpoint {
  kind: ProviderKind;
  baseUrl: string | undefined;
  apiKeyEnv: string | undefined;
}

/**
 * The live provider of a model for one scenario, the same for the agent, the simulator and the
 * judges: the run's SDK client (or the injected factory) behind the suite's timeout, rate limit
 * and retries, recording into `recorder` when one is given, held to the scenario's budget when one applies.
 */
export function liveModelProvider(context: ModelCallContext, endpoint: ModelEndpoint, recorder: Recorder | undefined): Provider {
  const settings = context.suite.config.settings;
  const live = context.liveProvider
    ? context.liveProvider(endpoint.kind, endpoint.baseUrl, endpoint.apiKeyEnv)
    : sharedLiveProvider(context, endpoint.kind, endpoint.baseUrl, endpoint.apiKeyEnv);
  const limiter = context.limiters?.get(endpoint.kind);
  const resilient = resilientProvider(live, {
    ...(settings?.timeout_ms !== undefined ? { timeoutMs: settings.timeout_ms } : {}),
    ...(limiter ? { limiter } : {}),
    retry: {
      ...(settings?.retries?.max !== undefined ? { maxRetries: settings.retries.max } : {}),
      ...(settings?.retries?.base_delay_ms !== undefined ? { baseDelayMs: settings.retries.base_delay_ms } : {}),
      ...(settings?.retries?.max_delay_ms !== undefined ? { maxDelayMs: settings.retries.max_delay_ms } : {}),
    },
    ...(context.resilience ? { dependencies: context.resilience } : {}),
  });
  const recording = recorder ? recordingProvider(resilient, recorder) : resilient;
  return context.budget ? budgetedProvider(recording, context.budget, context.suite.config.pricing) : recording;
}

/**
 * Counts every answered call into the scenario's `calls` (its cost) and tells the run (budget, spend
 * per model); `server` is the endpoint the calls go to, kept with each call for the export's spans.
 */
export function meteredInto(provider: Provider, calls: CallRecord[], context: ModelCallContext, server?: ProviderServer): Provider {
  return meteredProvider(
    provider,
    (call) => {
      calls.push(call);
      context.onCall?.(call, costOfCall(call.model, call.usage, context.suite.config.pricing));
    },
    server,
  );
}

/** The run's one SDK client per provider kind, base URL and key variable (it serves every scenario and the judges). */
function sharedLiveProvider(context: ModelCallContext, kind: ProviderKind, baseUrl: string | undefined, apiKeyEnv: string | undefined): Provider {
  const key = `${kind}\u0000${baseUrl ?? ''}\u0000${apiKeyEnv ?? ''}`;
  const cached = context.liveProviders?.get(key);
  if (cached) return cached;
  const timeoutMs = context.suite.config.settings?.timeout_ms;
  const created = createLiveProvider(
    { kind, ...(baseUrl ? { baseUrl } : {}), ...(apiKeyEnv ? { apiKeyEnv } : {}), ...(timeoutMs ? { timeoutMs } : {}) },
    context.env,
  );
  context.liveProviders?.set(key, created);
  return created;
}
