import type { CostSummary, Gate, MetricResult, RunMode, Status, Transcript } from '@parley/core';

/** The version of the report.json format written by this Parley. */
export const REPORT_SCHEMA_VERSION = 1;

/**
 * `report.json`, schema_version 1 (SPEC §4.3). Readers (merge-reports, compare, dashboards) check
 * `schema_version` before anything else; a field is only ever added under the same version, never
 * renamed or removed.
 */
export interface RunReport {
  schema_version: typeof REPORT_SCHEMA_VERSION;
  run_id: string;
  suite: string;
  parley_version: string;
  mode: RunMode;
  /** The run's overall status over blocking scenarios (see `runStatus` in @parley/gate). */
  status: Status;
  /** The exit code of `parley run` for this report: 0, 1, or 130 when interrupted. */
  exit_code: number;
  strict: boolean;
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
  counts: Record<Status, number>;
  /** Sorted by scenario id. */
  results: ReportResult[];
}

export interface BudgetReport {
  limit_usd: number;
  /** True when spending reached the limit during the run. */
  exhausted: boolean;
  /** What was given up, in order, e.g. `cross-check sample 10% → 0%`, `12 scenarios skipped`. */
  downgrades: string[];
}

/** One scenario in the report. Never carries the session (conversation id, tenant): it differs per run. */
export interface ReportResult {
  scenario_id: string;
  title?: string;
  agent: string;
  gate: Gate;
  tags: string[];
  language?: string;
  status: Status;
  reason: string;
  /** When true, reasons, details, error text and the transcript are withheld (SPEC §7). */
  metadata_only: boolean;
  metrics: MetricResult[];
  cost: CostSummary;
  error?: { kind: string; message: string; details?: string };
  /** Left out for metadata_only scenarios. */
  transcript?: Transcript;
}
