import { addCost, emptyCost, type MetricResult, type RunMode, type ScenarioResult } from '@parley/core';
import { countStatuses, EXIT_INTERRUPTED, exitCodeFor, runStatus } from '@parley/gate';
import { REPORT_SCHEMA_VERSION, type BudgetReport, type ReportResult, type RunReport } from './report-schema.js';
import { WITHHELD, withheldScenarioReason, withholdMetricContent } from './withhold-content.js';

/** Facts about the run that do not come from its scenario results. */
export interface RunInfo {
  run_id: string;
  suite: string;
  parley_version: string;
  mode: RunMode;
  strict: boolean;
  /** ISO 8601, UTC (from the injected clock, so tests are deterministic). */
  started_at: string;
  finished_at: string;
  duration_ms: number;
  git_sha?: string | null;
  config_fingerprint?: string | null;
  budget?: BudgetReport;
  /** Ctrl-C stopped the run: the report keeps every finished result and says exit 130. */
  interrupted?: boolean;
}

/**
 * Builds `report.json`'s content from a run's results. Status, exit code and counts come from
 * @parley/gate, so the report can never disagree with the process's exit code.
 *
 * Deterministic: results are sorted by scenario id (ordinal string order, never locale-dependent) and every
 * object is built with a fixed key order, so the same inputs give byte-identical JSON from
 * {@link renderReportJson}. Sessions (conversation id, tenant) are never included, because they
 * differ on every run and would make two replays of the same recordings compare unequal.
 * `metadata_only` scenarios lose their transcript and every piece of text that could quote it.
 */
export function buildReport(run: RunInfo, results: readonly ScenarioResult[]): RunReport {
  const sorted = [...results].sort((left, right) => compareOrdinal(left.scenario_id, right.scenario_id));
  const cost = sorted.reduce((total, result) => addCost(total, result.cost), emptyCost());
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    run_id: run.run_id,
    suite: run.suite,
    parley_version: run.parley_version,
    mode: run.mode,
    status: runStatus(sorted),
    exit_code: run.interrupted === true ? EXIT_INTERRUPTED : exitCodeFor(sorted, { strict: run.strict }),
    strict: run.strict,
    started_at: run.started_at,
    finished_at: run.finished_at,
    duration_ms: run.duration_ms,
    git_sha: run.git_sha ?? null,
    config_fingerprint: run.config_fingerprint ?? null,
    cost_usd: cost.usd,
    cost,
    ...(run.budget !== undefined ? { budget: { ...run.budget, downgrades: [...run.budget.downgrades] } } : {}),
    counts: countStatuses(sorted),
    results: sorted.map(reportResult),
  };
}

/** report.json's text: 2-space indent, trailing newline, keys in the order the report was built. */
export function renderReportJson(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

function reportResult(result: ScenarioResult): ReportResult {
  const withheld = result.metadata_only;
  const error = result.error === undefined ? undefined : reportError(result.error, withheld);
  return {
    scenario_id: result.scenario_id,
    ...(result.title !== undefined ? { title: result.title } : {}),
    agent: result.agent,
    gate: result.gate,
    tags: [...result.tags],
    ...(result.language !== undefined ? { language: result.language } : {}),
    status: result.status,
    reason: withheld ? withheldScenarioReason(result) : result.reason,
    metadata_only: result.metadata_only,
    metrics: result.metrics.map((metric) => (withheld ? withholdMetricContent(metric) : copyMetric(metric))),
    cost: { ...result.cost },
    ...(error !== undefined ? { error } : {}),
    ...(!withheld && result.transcript !== undefined ? { transcript: structuredClone(result.transcript) } : {}),
  };
}

function reportError(error: NonNullable<ScenarioResult['error']>, withheld: boolean): NonNullable<ReportResult['error']> {
  // A recording-miss diff or an agent's stderr quotes the conversation: only the kind is safe.
  if (withheld) return { kind: error.kind, message: WITHHELD };
  return { kind: error.kind, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) };
}

function copyMetric(metric: MetricResult): MetricResult {
  return {
    metric: metric.metric,
    version: metric.version,
    score: metric.score,
    threshold: metric.threshold,
    passed: metric.passed,
    reason: metric.reason,
    ...(metric.details !== undefined ? { details: structuredClone(metric.details) } : {}),
    ...(metric.error !== undefined ? { error: metric.error } : {}),
  };
}

function compareOrdinal(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
