import { BASELINE_SCHEMA_VERSION, type BaselineEntry, type BaselineFile } from '@parley/config';
import type { MetricResult } from '@parley/core';
import { metricKeys } from './metric-keys.js';

export interface BaselineRunInfo {
  suite: string;
  parleyVersion: string;
  /** ISO 8601, UTC, from the run's clock. */
  createdAt: string;
  configFingerprint: string;
}

/**
 * The baseline of a run (`--export-baseline`, docs/gating.md): one entry per scenario and scored
 * metric, sorted by scenario id and metric key, so that re-exporting an unchanged run gives the
 * same file and a changed one a readable diff. Pass/fail metrics and metrics that could not be
 * evaluated have no score and no entry. A result of a repeated scenario carries the mean of its
 * attempts as its score; the entry keeps the attempts' scores beside it.
 */
export function buildBaseline(
  run: BaselineRunInfo,
  results: ReadonlyArray<{ scenario_id: string; metrics: readonly MetricResult[] }>,
): BaselineFile {
  const entries: BaselineEntry[] = [];
  for (const result of results) {
    const keys = metricKeys(result.metrics);
    result.metrics.forEach((metric, index) => {
      if (metric.score === null || metric.error === true) return;
      entries.push({ test_id: result.scenario_id, metric: keys[index]!, score: metric.score, meta: entryMeta(metric) });
    });
  }
  entries.sort((left, right) => compareOrdinal(left.test_id, right.test_id) || compareOrdinal(left.metric, right.metric));
  return {
    schema_version: BASELINE_SCHEMA_VERSION,
    suite: run.suite,
    parley_version: run.parleyVersion,
    created_at: run.createdAt,
    config_fingerprint: run.configFingerprint,
    entries,
  };
}

/**
 * The baseline file's text: 2-space indented JSON with a trailing newline, keys in the order
 * written by {@link buildBaseline}. Stable, so it can be committed and reviewed like a snapshot.
 */
export function renderBaselineJson(baseline: BaselineFile): string {
  return `${JSON.stringify(baseline, null, 2)}\n`;
}

function entryMeta(metric: MetricResult): NonNullable<BaselineEntry['meta']> {
  const meta: NonNullable<BaselineEntry['meta']> = { metric_version: metric.version };
  const details = metric.details ?? {};
  if (typeof details['judge_model'] === 'string') meta['judge_model'] = details['judge_model'];
  if (typeof details['attempts'] === 'number') meta['attempts'] = details['attempts'];
  const scores = details['attempt_scores'];
  if (Array.isArray(scores) && scores.every((score) => typeof score === 'number')) meta['attempt_scores'] = scores;
  return meta;
}

function compareOrdinal(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
