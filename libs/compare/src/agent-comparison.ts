import { countStatuses } from '@parley/gate';
import { addCost, emptyCost, scenarioOfCase, type ScenarioResult } from '@parley/core';
import type { AgentComparisonReport, AgentMetricTest, AgentScoreRow, AgentTotals } from '@parley/reports';
import { quantile } from 'simple-statistics';
import { metricTests } from './compare-runs.js';
import { runScores, type ResultWithAttempts, type RunScores } from './run-scores.js';

/** A case's result as the comparison reads it: its attempts' metrics under `--repeat`. */
export type ComparedResult = Pick<ScenarioResult, 'scenario_id' | 'agent' | 'status' | 'gate' | 'metrics' | 'cost' | 'transcript'> & {
  attempts?: ReadonlyArray<Pick<ScenarioResult, 'metrics'>>;
};

export interface AgentComparisonOptions {
  /** Seed of the bootstrap and of sampled permutations (default 1, as `parley compare`). */
  seed?: number;
  resamples?: number;
  /** Significance level (default 0.05). */
  alpha?: number;
}

/**
 * The side-by-side view of a comparison run: every agent's score per scenario and metric, and per
 * metric the paired test `parley compare` uses (sign-flip permutation over the scenarios, with a
 * seeded bootstrap interval of the mean difference) between each agent and the first one named.
 * Here one score per scenario is enough for the test: the pairs are the scenarios, and the two
 * agents met the same scripted user, the same mocked tools and the same judge. A winner is named
 * only when p < alpha and the interval excludes 0; otherwise the difference may be noise.
 *
 * @example
 * const comparison = compareAgents(report.results, ['booking', 'booking_v2']);
 * comparison.tests.find((test) => test.metric === 'booking_slot_consistency')?.winner // 'booking'
 */
export function compareAgents(results: readonly ComparedResult[], agents: readonly string[], options: AgentComparisonOptions = {}): AgentComparisonReport {
  const seed = options.seed ?? 1;
  const alpha = options.alpha ?? 0.05;
  const resamples = options.resamples ?? 10_000;
  const byAgent = new Map<string, ComparedResult[]>(agents.map((agent) => [agent, []]));
  for (const result of results) byAgent.get(result.agent)?.push(result);
  const scores = new Map(agents.map((agent) => [agent, scoresOf(agent, byAgent.get(agent) ?? [])]));

  const rows = new Map<string, AgentScoreRow>();
  for (const agent of agents) {
    for (const [scenarioId, scenario] of scores.get(agent)!.scenarios) {
      for (const [key, metric] of scenario.metrics) {
        const rowKey = `${scenarioId}\u0000${key}`;
        const row = rows.get(rowKey) ?? { scenario_id: scenarioId, metric: key, scores: Object.fromEntries(agents.map((name) => [name, null])) };
        row.scores[agent] = metric.scores.length > 0 ? average(metric.scores) : null;
        rows.set(rowKey, row);
      }
    }
  }
  const scoreRows = [...rows.values()].sort((left, right) => ordinal(left.scenario_id, right.scenario_id) || ordinal(left.metric, right.metric));

  const reference = agents[0]!;
  const tests: AgentMetricTest[] = [];
  for (const challenger of agents.slice(1)) {
    const deltas = scoreRows.flatMap((row) => {
      const before = row.scores[reference];
      const after = row.scores[challenger];
      return before === null || before === undefined || after === null || after === undefined ? [] : [{ metric: row.metric, before, after, delta: after - before }];
    });
    for (const test of metricTests(deltas, seed, resamples, alpha)) {
      const paired = deltas.filter((delta) => metricName(delta.metric) === test.metric);
      const winner = test.verdict === 'no significant change' ? null : test.mean_delta > 0 ? challenger : reference;
      tests.push({
        metric: test.metric,
        agent: challenger,
        against: reference,
        pairs: test.pairs,
        agent_mean: average(paired.map((delta) => delta.after)),
        against_mean: average(paired.map((delta) => delta.before)),
        mean_delta: test.mean_delta,
        p_value: test.test.p_value,
        interval: { low: test.interval.low, high: test.interval.high },
        winner,
      });
    }
  }
  return {
    agents: [...agents],
    per_agent: agents.map((agent) => totalsOf(agent, byAgent.get(agent) ?? [])),
    scores: scoreRows,
    tests,
    statistics_note: `paired sign-flip permutation test over the scenarios against ${reference}, 95% bootstrap interval of the mean difference, seed ${seed}; a winner when p < ${alpha} and the interval excludes 0`,
  };
}

/** One agent's cases as the scores `parley compare` reads, keyed by the scenario (not the case id). */
function scoresOf(agent: string, results: readonly ComparedResult[]): RunScores {
  const withAttempts: ResultWithAttempts[] = results.map((result) => ({
    result: { ...result, scenario_id: scenarioOfCase(result.scenario_id) },
    attempts: result.attempts ?? [],
  }));
  return runScores({ label: agent, run_id: '', suite: '', repeat: 1 }, withAttempts);
}

function totalsOf(agent: string, results: readonly ComparedResult[]): AgentTotals {
  const latencies = results.flatMap((result) =>
    (result.transcript?.turns ?? []).flatMap((turn) => (turn.role === 'assistant' && typeof turn.latency_ms === 'number' ? [turn.latency_ms] : [])),
  );
  return {
    agent,
    cases: results.length,
    counts: countStatuses(results),
    cost: results.reduce((total, result) => addCost(total, result.cost), emptyCost()),
    mean_latency_ms: latencies.length > 0 ? Math.round(average(latencies)) : null,
    p95_latency_ms: latencies.length > 0 ? Math.round(quantile(latencies, 0.95)) : null,
  };
}

/** `content_signals#2` → `content_signals`, as the tests pool a metric's occurrences. */
function metricName(key: string): string {
  return key.replace(/#\d+$/, '');
}

function average(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function ordinal(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
