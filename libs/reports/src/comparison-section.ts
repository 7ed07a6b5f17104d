import { formatDeltaCell, formatScoreCell } from '@parley/gate';
import { escapeTableCell } from './markdown-text.js';
import type { AgentComparisonReport, AgentMetricTest, AgentTotals } from './report-schema.js';

/**
 * summary.md's side-by-side view of a comparison run: per agent its totals, cost and latency; per
 * metric the two means, the difference, the p-value and the winner; then every scenario's score
 * per metric and agent with the difference from the first agent.
 */
export function comparisonSection(comparison: AgentComparisonReport): string {
  const [reference, ...others] = comparison.agents;
  const agentHeader = comparison.agents.map((agent) => `\`${agent}\``).join(' vs ');
  const totals = [
    '| Agent | Cases | Pass | Fail | Error | Cost | Calls | Mean latency | p95 latency |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...comparison.per_agent.map(
      (totalsOfAgent) =>
        `| \`${totalsOfAgent.agent}\` | ${totalsOfAgent.cases} | ${totalsOfAgent.counts.pass} | ${totalsOfAgent.counts.fail} | ${totalsOfAgent.counts.error} | ${formatAgentCost(totalsOfAgent)} | ${totalsOfAgent.cost.calls} | ${formatMs(totalsOfAgent.mean_latency_ms)} | ${formatMs(totalsOfAgent.p95_latency_ms)} |`,
    ),
  ];
  const tests =
    comparison.tests.length === 0
      ? ['No metric was scored by two agents on the same scenario.']
      : [
          '| Metric | Agent | Mean | Against | Mean | Δ | Pairs | p | Winner |',
          '| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | --- |',
          ...comparison.tests.map(
            (test) =>
              `| ${escapeTableCell(test.metric)} | \`${test.agent}\` | ${formatScoreCell(test.agent_mean)} | \`${test.against}\` | ${formatScoreCell(test.against_mean)} | ${formatDeltaCell(test.mean_delta)} | ${test.pairs} | ${formatP(test.p_value)} | ${winnerText(test)} |`,
          ),
        ];
  const scoreHeader = `| Scenario | Metric | ${comparison.agents.map((agent) => `\`${agent}\``).join(' | ')} | ${others.map((agent) => `Δ ${agent}`).join(' | ')} |`;
  const scores = [
    scoreHeader,
    `| --- | --- | ${comparison.agents.map(() => '---:').join(' | ')} | ${others.map(() => '---:').join(' | ')} |`,
    ...comparison.scores.map((row) => {
      const base = row.scores[reference!] ?? null;
      const cells = comparison.agents.map((agent) => formatScoreCell(row.scores[agent] ?? null));
      const deltas = others.map((agent) => {
        const score = row.scores[agent] ?? null;
        return base === null || score === null ? '–' : formatDeltaCell(score - base);
      });
      return `| \`${row.scenario_id}\` | ${escapeTableCell(row.metric)} | ${cells.join(' | ')} | ${deltas.join(' | ')} |`;
    }),
  ];
  return [
    `### Agents compared: ${agentHeader}`,
    totals.join('\n'),
    '#### Winner per metric',
    `${comparison.statistics_note}.`,
    tests.join('\n'),
    '#### Scores per scenario',
    scores.join('\n'),
  ].join('\n\n');
}

/** `booking_v2`, or `no clear winner` when the difference may be noise. */
export function winnerText(test: Pick<AgentMetricTest, 'winner'>): string {
  return test.winner ?? 'no clear winner';
}

export function formatP(pValue: number): string {
  return pValue < 0.001 ? '<0.001' : pValue.toFixed(3);
}

export function formatMs(milliseconds: number | null): string {
  return milliseconds === null ? '–' : `${milliseconds} ms`;
}

export function formatAgentCost(totals: Pick<AgentTotals, 'cost'>): string {
  return totals.cost.usd === null ? 'unknown' : `$${totals.cost.usd.toFixed(4)}`;
}
