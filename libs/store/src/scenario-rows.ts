import type { Gate, MetricResult, ScenarioResult, Transcript } from '@parley/core';
import { toStatus } from './run-rows.js';

/** The columns of `scenario_results`, in the order the store inserts them. */
export const scenarioResultColumns = [
  'run_id', 'scenario_id', 'attempt', 'title', 'agent', 'gate', 'tags_json', 'language', 'metadata_only',
  'status', 'reason', 'input_tokens', 'output_tokens', 'cost_usd', 'calls', 'error_json', 'session_json', 'transcript_json',
] as const satisfies readonly (keyof ScenarioResultRecord)[];

/** The columns of `metric_scores`, in the order the store inserts them. */
export const metricScoreColumns = [
  'run_id', 'scenario_id', 'attempt', 'position', 'metric', 'version', 'score', 'threshold', 'passed', 'error', 'reason', 'details_json',
] as const satisfies readonly (keyof MetricScoreRecord)[];

/** One row of `scenario_results` as the database returns it. */
export interface ScenarioResultRecord {
  run_id: string;
  scenario_id: string;
  attempt: number;
  title: string | null;
  agent: string;
  gate: string;
  tags_json: string;
  language: string | null;
  metadata_only: number;
  status: string;
  reason: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  calls: number;
  error_json: string | null;
  session_json: string | null;
  transcript_json: string | null;
}

/** One row of `metric_scores` as the database returns it. */
export interface MetricScoreRecord {
  run_id: string;
  scenario_id: string;
  attempt: number;
  position: number;
  metric: string;
  version: string;
  score: number | null;
  threshold: number | null;
  passed: number;
  error: number | null;
  reason: string;
  details_json: string | null;
}

/** Flags are stored as 0 and 1 on both databases (SQLite has no boolean). */
function flag(value: boolean | undefined): number {
  return value === true ? 1 : 0;
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

export function scenarioResultParameters(runId: string, result: ScenarioResult, attempt: number): ScenarioResultRecord {
  return {
    run_id: runId,
    scenario_id: result.scenario_id,
    attempt,
    title: result.title ?? null,
    agent: result.agent,
    gate: result.gate,
    tags_json: JSON.stringify(result.tags),
    language: result.language ?? null,
    metadata_only: flag(result.metadata_only),
    status: result.status,
    reason: result.reason,
    input_tokens: result.cost.input_tokens,
    output_tokens: result.cost.output_tokens,
    cost_usd: result.cost.usd,
    calls: result.cost.calls,
    error_json: jsonOrNull(result.error),
    session_json: jsonOrNull(result.session),
    transcript_json: jsonOrNull(result.transcript),
  };
}

export function metricScoreParameters(
  runId: string,
  scenarioId: string,
  attempt: number,
  metric: MetricResult,
  position: number,
): MetricScoreRecord {
  return {
    run_id: runId,
    scenario_id: scenarioId,
    attempt,
    position,
    metric: metric.metric,
    version: metric.version,
    score: metric.score,
    threshold: metric.threshold,
    passed: flag(metric.passed),
    error: metric.error === undefined ? null : flag(metric.error),
    reason: metric.reason,
    details_json: jsonOrNull(metric.details),
  };
}

/**
 * Rebuilds a result. Optional fields that were absent when saved stay absent, so a stored result
 * compares equal to the one that was saved. The JSON columns were written by this store.
 */
export function scenarioResultFromRecords(record: ScenarioResultRecord, metrics: MetricScoreRecord[]): ScenarioResult {
  const tags: string[] = JSON.parse(record.tags_json);
  const result: ScenarioResult = {
    scenario_id: record.scenario_id,
    agent: record.agent,
    gate: toGate(record.gate),
    tags,
    metadata_only: record.metadata_only === 1,
    status: toStatus(record.status),
    reason: record.reason,
    metrics: metrics.map(metricResultFromRecord),
    cost: {
      input_tokens: record.input_tokens,
      output_tokens: record.output_tokens,
      usd: record.cost_usd,
      calls: record.calls,
    },
  };
  if (record.title !== null) result.title = record.title;
  if (record.language !== null) result.language = record.language;
  if (record.transcript_json !== null) {
    const transcript: Transcript = JSON.parse(record.transcript_json);
    result.transcript = transcript;
  }
  if (record.error_json !== null) {
    const error: NonNullable<ScenarioResult['error']> = JSON.parse(record.error_json);
    result.error = error;
  }
  if (record.session_json !== null) {
    const session: NonNullable<ScenarioResult['session']> = JSON.parse(record.session_json);
    result.session = session;
  }
  return result;
}

function metricResultFromRecord(record: MetricScoreRecord): MetricResult {
  const metric: MetricResult = {
    metric: record.metric,
    version: record.version,
    score: record.score,
    threshold: record.threshold,
    passed: record.passed === 1,
    reason: record.reason,
  };
  if (record.details_json !== null) {
    const details: Record<string, unknown> = JSON.parse(record.details_json);
    metric.details = details;
  }
  if (record.error !== null) metric.error = record.error === 1;
  return metric;
}

function toGate(value: string): Gate {
  if (value === 'blocking' || value === 'advisory') return value;
  throw new Error(`stored gate "${value}" is not blocking or advisory`);
}
