import type { ModelRef, LoadedSuite } from '@parley/config';
import type { Clock, Provider } from '@parley/core';
import type { Located, LoggedConversation } from '@parley/production';
import type { Redactor } from '@parley/redaction';
import type { LangfuseTarget, SendScoresOptions } from '@parley/langfuse';
import type { BatchState } from './batch-judging.js';
import type { MetricWindowComparison, WindowComparisonOptions } from './window-comparison.js';

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
  /**
   * Ctrl-C / SIGTERM: no judge call starts after it and calls in flight are aborted; the
   * conversations judged so far are saved (and their scores sent), the rest wait for the next run.
   * Aborted with the reason `'SIGTERM'` the outcome's exit code is 143, else 130.
   */
  signal?: AbortSignal;
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
  /** `reason`: why a metric could not be evaluated (masked), on errored scores only. */
  scores: Array<{ metric: string; score: number | null; passed: boolean; error: boolean; reason?: string }>;
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
  /** Planned conversations an interruption left for the next run. */
  not_judged: ConversationRef[];
  /** Planned conversations another monitor process running at the same time claimed first (it judges them). */
  left_to_others: ConversationRef[];
  /** The signal that stopped the run, or null when it ran to the end. */
  interrupted: 'SIGINT' | 'SIGTERM' | null;
  spent_usd: number | null;
  /** Input tokens of the judge calls read from the providers' prompt caches, and what that saved (USD; null when unpriced). */
  cached_input_tokens: number;
  cache_saving_usd: number | null;
  /** Scores Langfuse accepted in this run: those earlier runs left in the outbox, then this run's. */
  pushed_scores: number;
  /** Scores still in the outbox for this Langfuse: the next run, or `parley monitor --flush`, sends them. */
  undelivered_scores: number;
  /** Why Langfuse did not take them, or null. */
  delivery_error: string | null;
  /** `--batch` only: the batches this run submitted, collected or found still in progress, and the conversations waiting for them. */
  batch: { batches: BatchState[]; waiting: ConversationRef[] } | null;
  windows: MetricWindowComparison[];
  alerts: string[];
  /** 130 (Ctrl-C) or 143 (SIGTERM) when interrupted, else 1 when there is an alert or Langfuse did not take the scores, else 0. */
  exit_code: 0 | 1 | 130 | 143;
}
