import type { ReportResult, BaselineReport } from './report-schema.js';

/** The baseline file a run was gated against, as the run read it. */
export interface BaselineSource {
  /** As given to `--baseline`. */
  file: string;
  suite: string;
  parley_version: string;
  created_at: string;
  config_fingerprint: string;
  fingerprint_matches: boolean;
}

/** Within this distance a score equals its baseline: not an improvement. */
const TOLERANCE = 1e-9;

/**
 * The report's `baseline` section: the source file's identity, and counts of what the comparison
 * found, read from the flat baseline keys the gate writes into each metric's details
 * (`baseline_score`, `baseline_delta`, `regression`, `below_floor`, `baseline_missing`). Those keys
 * are numbers and booleans, so the counts include `metadata_only` scenarios too.
 */
export function baselineReport(source: BaselineSource, results: readonly ReportResult[]): BaselineReport {
  const counts = { compared: 0, regressions: 0, below_floor: 0, missing: 0, improvements: 0 };
  for (const metric of results.flatMap((result) => result.metrics)) {
    const details = metric.details ?? {};
    if (typeof details['baseline_score'] === 'number') counts.compared += 1;
    if (details['regression'] === true) counts.regressions += 1;
    if (details['below_floor'] === true) counts.below_floor += 1;
    if (details['baseline_missing'] === true) counts.missing += 1;
    const delta = details['baseline_delta'];
    if (typeof delta === 'number' && delta > TOLERANCE) counts.improvements += 1;
  }
  return { ...source, ...counts };
}
