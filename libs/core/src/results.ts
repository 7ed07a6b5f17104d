import type { Transcript } from './transcript.js';

export type Status = 'pass' | 'fail' | 'warn' | 'flaky' | 'error' | 'skipped';
/**
 * A run's overall status: a scenario status, or `interrupted` when Ctrl-C or SIGTERM stopped it
 * before every scenario ran (exit 130 / 143). Only a run can be interrupted, never one scenario.
 */
export type RunStatus = Status | 'interrupted';
export const RUN_STATUSES: readonly RunStatus[] = ['pass', 'fail', 'warn', 'flaky', 'error', 'skipped', 'interrupted'];
/** The signal that stopped a run: Ctrl-C (SIGINT) or a CI runner's / `timeout`'s SIGTERM. */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';
export type Gate = 'blocking' | 'advisory';
export type RunMode = 'replay' | 'live' | 'record';

/** What a metric says about one transcript. */
export interface MetricResult {
  metric: string;
  version: string;
  /** In [0, 1]; null for metrics that only pass or fail. */
  score: number | null;
  threshold: number | null;
  passed: boolean;
  reason: string;
  details?: Record<string, unknown>;
  /** True when the metric could not be evaluated (judge output unusable, bad parameters). */
  error?: boolean;
}

export interface CostSummary {
  input_tokens: number;
  output_tokens: number;
  /** null when some call's model has no known price: never silently 0. */
  usd: number | null;
  calls: number;
  /** Of the input tokens, those read from the providers' prompt caches (absent when none were). */
  cached_input_tokens?: number;
  /** What the prompt cache saved against full input price (USD; absent when nothing was cached, null when a model has no price). */
  cache_saving_usd?: number | null;
}

/**
 * One LLM call (or service-agent reply) of a scenario, as the metering layer saw it: what exports
 * turn into spans. In call order; no timestamps, so a replay reports the same calls as its recording.
 */
export interface CallSummary {
  role: 'agent' | 'simulator' | 'judge';
  provider: string;
  model: string;
  /** 1-based user turn of the call; 0 for calls after the conversation (judges). */
  turn: number;
  input_tokens: number;
  output_tokens: number;
  /** null when the model has no known price. */
  cost_usd: number | null;
  latency_ms: number;
  /** Of the input tokens, those read from the provider's prompt cache (absent when none). */
  cached_input_tokens?: number;
  /** Of the input tokens, those written to Anthropic's prompt cache (absent when none). */
  cache_write_input_tokens?: number;
  /** The model the provider says answered (`gpt-4.1-mini-2025-04-14`); absent for service agents. */
  response_model?: string;
  /** Why the provider says it stopped, as it says it (`stop`, `tool_calls`, `end_turn`); absent for service agents. */
  finish_reason?: string;
  /** Host and port of the provider endpoint the call was configured for (no credentials, no path); absent for service agents. */
  server_address?: string;
  server_port?: number;
}

export interface ScenarioResult {
  scenario_id: string;
  title?: string;
  agent: string;
  gate: Gate;
  tags: string[];
  language?: string;
  /** A variant's values (`{lang: "zu", persona: "rushed"}` for `spa_booking[lang=zu,persona=rushed]`); absent for a scenario without variables. */
  vars?: Record<string, string>;
  metadata_only: boolean;
  status: Status;
  /** One line saying why the status is what it is (first failing expectation, error cause). */
  reason: string;
  metrics: MetricResult[];
  transcript?: Transcript;
  cost: CostSummary;
  /** Every call the scenario made, in order (agent, simulator, judge). */
  calls?: CallSummary[];
  /** Error detail (recording miss diff, provider failure) when status is `error`. */
  error?: { kind: string; message: string; details?: string };
  /** Session identity given to the agent (kept out of report.json so replays compare equal). */
  session?: { conversation_id: string; tenant: string };
}

export function emptyCost(): CostSummary {
  return { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 };
}

/** Adds two costs; unknown (null) USD is contagious. */
export function addCost(left: CostSummary, right: CostSummary): CostSummary {
  const cached = (left.cached_input_tokens ?? 0) + (right.cached_input_tokens ?? 0);
  const saving = left.cache_saving_usd === null || right.cache_saving_usd === null ? null : (left.cache_saving_usd ?? 0) + (right.cache_saving_usd ?? 0);
  return {
    input_tokens: left.input_tokens + right.input_tokens,
    output_tokens: left.output_tokens + right.output_tokens,
    usd: left.usd === null || right.usd === null ? null : left.usd + right.usd,
    calls: left.calls + right.calls,
    ...(cached > 0 || left.cache_saving_usd !== undefined || right.cache_saving_usd !== undefined ? { cached_input_tokens: cached, cache_saving_usd: saving } : {}),
  };
}
