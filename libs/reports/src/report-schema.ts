import type { CallSummary, CostSummary, Gate, InterruptSignal, MetricResult, RunMode, RunStatus, Status, Transcript } from '@parley/core';
import type { RunWarning } from '@parley/gate';

/** The version of the report.json format written by this Parley. */
export const REPORT_SCHEMA_VERSION = 1;

/**
 * `report.json`, schema_version 1 (docs/file-formats.md, "Run outputs"). Readers (merge-reports,
 * compare, dashboards) check `schema_version` before anything else; a field is only ever added
 * under the same version, never renamed or removed.
 */
export interface RunReport {
  schema_version: typeof REPORT_SCHEMA_VERSION;
  run_id: string;
  suite: string;
  parley_version: string;
  mode: RunMode;
  /**
   * The run's overall status over blocking scenarios (see `runStatus` in @parley/gate), or
   * `interrupted` when Ctrl-C or SIGTERM stopped it before every scenario ran.
   */
  status: RunStatus;
  /** The exit code of `parley run` for this report: 0, 1, or 130 (Ctrl-C) / 143 (SIGTERM) when interrupted. */
  exit_code: number;
  strict: boolean;
  /** Present when Ctrl-C or SIGTERM stopped the run (status `interrupted`): how far it got and how to finish it. */
  interruption?: RunInterruption;
  /** ISO 8601, UTC. */
  started_at: string;
  finished_at: string;
  duration_ms: number;
  git_sha: string | null;
  config_fingerprint: string | null;
  /** Total spend; null when some call's model has no known price (never silently 0). */
  cost_usd: number | null;
  cost: CostSummary;
  /** Present when the run had a budget: what was spent and what the budget made Parley give up. */
  budget?: BudgetReport;
  /** `--repeat N` when N > 1: every result then lists its attempts. */
  repeat?: number;
  /** Present when `--shard` or `--changed-since` chose which of the loaded scenarios ran. */
  selection?: RunSelection;
  /** Present when the run was gated against a baseline (`--baseline`). */
  baseline?: BaselineReport;
  /** Problems of the run as a whole (e.g. a baseline of another configuration); see `RunWarning`. */
  warnings?: RunWarning[];
  /** Present in a report made by `parley merge-reports`: the shard runs it merges. */
  merged_from?: MergedShard[];
  /** Present when judge metrics ran: judge model, cache hits, cross-check agreement (docs/file-formats.md, "Judge metrics"). */
  judge?: JudgeReport;
  /** Present in a comparison run (`--agent A --agent B`, `matrix:`): the agents side by side. */
  comparison?: AgentComparisonReport;
  counts: Record<Status, number>;
  /** Sorted by scenario id. */
  results: ReportResult[];
}

/** How far an interrupted run got: `ran` of `planned` scenarios have a result; `resume` finishes the rest. */
interface RunInterruption {
  signal: InterruptSignal;
  /** Scenarios with a result (those finished before the signal, and those of earlier `--resume`s). */
  ran: number;
  /** Scenarios the run was to run (its selection). */
  planned: number;
  /** The command that finishes the run under the same id: `parley run --resume <run_id>`. */
  resume: string;
  /** The calls of the scenarios cut short (no result): counted in the run's `cost` all the same. */
  unfinished_cost?: CostSummary;
}

export interface BudgetReport {
  limit_usd: number;
  /** True when spending reached the limit during the run. */
  exhausted: boolean;
  /** What was given up, in order, e.g. `cross-check sample 10% → 0%`, `12 scenarios skipped`. */
  downgrades: string[];
  /**
   * Blocking scenarios the budget stopped before they started: each is `warn` (a blocking scenario
   * that did not run did not pass), so `--strict` fails the run. Written by every run with a budget.
   */
  unchecked_blocking?: number;
  /** Under `--shard I/N`: `limit_usd` is this shard's share of the PR's budget `total_usd` (÷ `shards`). */
  split?: { total_usd: number; shards: number };
  /**
   * Set when the run held to a budget shared with other runs under one key (`--budget-key`, the
   * shards of a PR): `limit_usd` is the whole budget, `spent_usd` this run's part of it, and
   * `shared.spent_usd` what every run holding to the key had spent when this one ended.
   */
  shared?: { key: string; spent_usd: number };
  /** What the run paid providers (a replay pays nothing): never more than `limit_usd`. */
  spent_usd?: number;
  /**
   * The command that runs the scenarios the budget left out (skipped or cut short): a run the
   * budget stopped finished, so `--resume` refuses it. Present when the budget left any out.
   */
  rerun?: string;
  /** How close the scenarios' estimates (reserved before each started) came to what they spent. */
  estimate?: { scenarios: number; estimated_usd: number; actual_usd: number };
}

/** What the LLM judges did in a run (docs/file-formats.md, "Judge metrics"): written by @parley/judge, read by people and dashboards. */
export interface JudgeReport {
  /** `<provider>:<model>` of the primary judge. */
  primary: string;
  /** `live`: judged by calling the model (the cache permitting); `replay`: answered from the recordings. */
  mode: 'live' | 'replay';
  /** Judge metric results in the run (cached ones included), and how many could not be evaluated. */
  verdicts: number;
  errors: number;
  /**
   * Judge calls never answered, neither verdicts nor errors: refused because their worst case did
   * not fit the budget, or cut short by Ctrl-C. Present when either is above 0.
   */
  not_asked?: { budget: number; interrupted: number };
  /** `judge.votes_on_fail` when above 1, and how many failing verdicts were re-asked. */
  votes_on_fail?: number;
  /** `judge.votes_on_fail` as a panel: its judge models (`<provider>:<model>`), asked after the primary. */
  panel?: string[];
  re_asked?: number;
  cache: JudgeCacheReport;
  cross_check?: CrossCheckReport;
  /**
   * Set in a run finished with `--resume` that kept earlier results: every count here is of the
   * part judged after the resume, not of the whole run.
   */
  resumed_part?: true;
}

interface JudgeCacheReport {
  /** Whether verdicts were looked up: not under --no-cache, in record mode, or when judging is replayed. */
  read: boolean;
  /** Whether new verdicts were stored: not under --no-cache, nor when judging is replayed. */
  written: boolean;
  /** `--cache-clear` emptied the cache before the run. */
  cleared: boolean;
  /** Verdicts taken from the cache (they cost 0) and verdicts judged afresh while the cache was read. */
  hits: number;
  misses: number;
  /** What the cached verdicts cost when they were made; null when a judge model has no known price. */
  saved_usd: number | null;
}

interface CrossCheckReport {
  /** `<provider>:<model>` of the second judge. */
  model: string;
  /** The configured sample, e.g. 0.1. */
  sample: number;
  /** The run seed the sample was drawn with (the same seed draws the same scenarios). */
  seed: number;
  /** Scenarios the sample chose, and those actually re-judged (sorted). */
  sampled: string[];
  checked: string[];
  /** Per metric: how often the two judges agreed on pass/fail, and how far apart their scores were. */
  agreement: MetricAgreement[];
  /** Cohen's kappa between the primary judge and the cross-check on the sampled verdicts, with the suite's trend. */
  kappa?: CrossCheckKappa;
  /** Present when spending reached the budget and the sample dropped to 0% for the rest of the run. */
  downgrade?: CrossCheckDowngrade;
}

export interface MetricAgreement {
  metric: string;
  /** Expectations both judges gave a verdict on. */
  compared: number;
  /** Of those, how many had the same pass/fail. */
  agreed: number;
  /** agreed / compared; null when nothing was compared. */
  rate: number | null;
  mean_abs_score_difference: number | null;
}

export interface CrossCheckDowngrade {
  reason: 'budget';
  /** Spend when cross-checking stopped. */
  spent_usd: number;
  limit_usd: number;
  /** Sampled scenarios judged afterwards without a cross-check (sorted). */
  not_checked: string[];
  /** One sentence for people: `cross-check sample 10% → 0% once $0.0123 of $0.0100 was spent …`. */
  message: string;
}

/** Which scenarios of the suite ran, when not all of them did. */
export interface RunSelection {
  /** Scenarios loaded (after `--scenario` / `--tag`) before the shard or the change set chose among them. */
  total: number;
  /** Scenarios that ran. */
  selected: number;
  /** `--shard I/N`. */
  shard?: { index: number; total: number };
  /** In a merged report: how many shard reports it merges. */
  shards?: number;
  /** `--changed-since REF`: the gate matrix. */
  changed_since?: ChangedSinceReport;
}

interface ChangedSinceReport {
  ref: string;
  /** Files changed since the ref (committed on this branch, or not committed yet), anywhere in the repository. */
  changed_files: number;
  /** The changed files (relative to the suite folder) that made scenarios run. */
  affecting: string[];
  /** True when no change affected any scenario and only advisory scenarios ran, as a smoke run. */
  smoke: boolean;
}

/** The baseline a run was gated against, and what the comparison found. */
export interface BaselineReport {
  /** The file as given to `--baseline`. */
  file: string;
  suite: string;
  parley_version: string;
  created_at: string;
  config_fingerprint: string;
  /** False when the baseline comes from another configuration (see `warnings`). */
  fingerprint_matches: boolean;
  /** Scored metrics that had a baseline entry. */
  compared: number;
  /** Metrics whose drop exceeded `max_drop`. */
  regressions: number;
  /** Metrics below `min_floor`. */
  below_floor: number;
  /** Scored metrics without a baseline entry. */
  missing: number;
  /** Metrics scoring above their baseline. */
  improvements: number;
}

export interface MergedShard {
  run_id: string;
  /** `2/3`, when the shard run said which it was. */
  shard?: string;
}

/** One run of a repeated scenario (`--repeat N`), numbered from 1. */
export interface ReportAttempt {
  attempt: number;
  status: Status;
  reason: string;
  metrics: MetricResult[];
  cost: CostSummary;
  /** Every call of the scenario in order: role, model, tokens, cost, latency (never content). */
  calls?: CallSummary[];
  error?: { kind: string; message: string; details?: string };
  /** Left out for metadata_only scenarios. */
  transcript?: Transcript;
}

/** One scenario in the report. Never carries the session (conversation id, tenant): it differs per run. */
export interface ReportResult {
  scenario_id: string;
  title?: string;
  /** The scenario file, relative to the folder the run ran in (`/` separators). */
  file?: string;
  agent: string;
  gate: Gate;
  tags: string[];
  language?: string;
  /** A variant's values, by variable name (docs/file-formats.md, "Variants"); absent for a scenario without variables. */
  vars?: Record<string, string>;
  status: Status;
  reason: string;
  /** When true, reasons, details, error text and the transcript are withheld (docs/privacy.md, "metadata_only scenarios"). */
  metadata_only: boolean;
  metrics: MetricResult[];
  cost: CostSummary;
  /** Every call of the scenario in order: role, model, tokens, cost, latency (never content). */
  calls?: CallSummary[];
  error?: { kind: string; message: string; details?: string };
  /** Left out for metadata_only scenarios. */
  transcript?: Transcript;
  /** Under `--repeat N`: every attempt, in order. The fields above then combine them. */
  attempts?: ReportAttempt[];
  /** Present when a person marked the scenario flaky in triage (`parley tui`). It changes no status. */
  flaky_mark?: ReportFlakyMark;
}

/** A triage verdict that the scenario is flaky, as the store keeps it (see `FlakyMark` in @parley/store). */
export interface ReportFlakyMark {
  /** ISO 8601, UTC. */
  marked_at: string;
  /** The run it was marked in. */
  run_id: string;
  /** The person's note; left out when empty, and for metadata_only scenarios. */
  note?: string;
}

/**
 * A comparison run's agents side by side. Each result of such a run is one (scenario, agent) case;
 * its `scenario_id` is the scenario's id for the scenario's own agent and `<scenario>@<agent>`
 * for another one (see `caseId` in @parley/core).
 */
export interface AgentComparisonReport {
  /** The agents compared, in the order they were named; the first is the one the others are tested against. */
  agents: string[];
  /** Per agent, over its cases: how they went, what they cost and how fast the agent answered. */
  per_agent: AgentTotals[];
  /** Per scenario and scored metric key: each agent's score (the mean over attempts), null when it has none. */
  scores: AgentScoreRow[];
  /** Per metric and agent after the first: the paired test of the two over the scenarios both scored. */
  tests: AgentMetricTest[];
  /** How the tests were made (test, seed, significance level). */
  statistics_note: string;
}

export interface AgentTotals {
  agent: string;
  cases: number;
  /** Cases by status. */
  counts: Record<Status, number>;
  cost: CostSummary;
  /** Over the agent's answers in the transcripts; null when none carries a latency (a metadata_only case, a replay of one without). */
  mean_latency_ms: number | null;
  p95_latency_ms: number | null;
}

export interface AgentScoreRow {
  /** The scenario (without `@agent`). */
  scenario_id: string;
  /** Metric key (`content_signals`, `content_signals#2` for the second occurrence). */
  metric: string;
  /** By agent name. */
  scores: Record<string, number | null>;
}

export interface AgentMetricTest {
  metric: string;
  /** The challenger and the agent it is compared with (the first one named). */
  agent: string;
  against: string;
  /** Paired (scenario, metric key) units both agents scored. */
  pairs: number;
  /** Mean score over those pairs of each side. */
  agent_mean: number;
  against_mean: number;
  /** Mean of the paired differences `agent − against`: positive means `agent` scores higher. */
  mean_delta: number;
  p_value: number;
  /** 95% percentile bootstrap interval of the mean difference. */
  interval: { low: number; high: number };
  /** The better agent when p < alpha and the interval excludes 0; null when the difference may be noise. */
  winner: string | null;
}

/** How far the cross-check agreed with the primary judge in a run, beyond chance (a drop is the first sign the judges drift apart: docs/calibration.md). */
export interface CrossCheckKappa {
  /** Verdicts both judges gave on the same expectation. */
  pairs: number;
  /** Cohen's kappa on pass/fail; null when undefined (every verdict of both judges the same). */
  pass_fail: number | null;
  /** Quadratic-weighted kappa on the scores in five bands of 0.2; null when undefined. */
  weighted: number | null;
  /** The pass/fail kappa of the suite's earlier runs that measured one, oldest first (at most 5). */
  trend: Array<{ run_id: string; kappa: number }>;
}
