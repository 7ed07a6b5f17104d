import type { Gate, MetricResult, ScenarioResult, Status } from '@parley/core';
import { metricKeys } from '@parley/gate';
import type { RunReport } from '@parley/reports';

/** The scores of one metric of one scenario: one per attempt (one in a run without `--repeat`). */
export interface MetricScores {
  /** The metric's name (the key is `name#2` for its second occurrence). */
  metric: string;
  scores: number[];
}

export interface ScenarioScores {
  scenario_id: string;
  status: Status;
  gate: Gate;
  /** Attempts run (1 without `--repeat`). */
  attempts: number;
  /** By metric key; scored metrics only. */
  metrics: Map<string, MetricScores>;
}

/** What `compare` needs of a run, from a report.json or from the history database. */
export interface RunScores {
  /** How the user named it (a path or a run id). */
  label: string;
  run_id: string;
  suite: string;
  /** `--repeat N` of the run (1 without). */
  repeat: number;
  scenarios: Map<string, ScenarioScores>;
}

/** A scenario's result with its attempts in order (none without `--repeat`). */
export interface ResultWithAttempts {
  result: Pick<ScenarioResult, 'scenario_id' | 'status' | 'gate' | 'metrics'>;
  attempts: ReadonlyArray<{ metrics: readonly MetricResult[] }>;
}

/** The scores of a report.json (its attempts under `--repeat`). */
export function scoresFromReport(report: RunReport, label: string): RunScores {
  return runScores(
    { label, run_id: report.run_id, suite: report.suite, repeat: report.repeat ?? 1 },
    report.results.map((result) => ({ result, attempts: result.attempts ?? [] })),
  );
}

/** The scores of a run from any source: each scenario's attempts' scores, or its one result's. */
export function runScores(run: Omit<RunScores, 'scenarios'>, results: readonly ResultWithAttempts[]): RunScores {
  const scenarios = new Map<string, ScenarioScores>();
  for (const { result, attempts } of results) {
    const sources = attempts.length > 0 ? attempts : [result];
    const metrics = new Map<string, MetricScores>();
    for (const source of sources) {
      const keys = metricKeys(source.metrics);
      source.metrics.forEach((metric, index) => {
        if (metric.score === null || metric.error === true) return;
        const key = keys[index]!;
        const entry = metrics.get(key) ?? { metric: metric.metric, scores: [] };
        entry.scores.push(metric.score);
        metrics.set(key, entry);
      });
    }
    scenarios.set(result.scenario_id, { scenario_id: result.scenario_id, status: result.status, gate: result.gate, attempts: sources.length, metrics });
  }
  return { ...run, scenarios };
}
