import { Box, Text } from 'ink';
import { formatDeltaCell, formatScoreCell } from '@parley/gate';
import { formatAgentCost, formatMs, formatP, winnerText, type AgentComparisonReport } from '@parley/reports';

/**
 * The lines of a comparison run's side-by-side table in the run screen, read-only: the agents
 * compared, per metric the two means, the difference, p and the winner, then cost and latency per
 * agent. Every line is cut to `width`.
 *
 * @example comparisonLines(comparison, 80)[0] // 'booking vs booking_v2 · winner per metric (paired test)'
 */
export function comparisonLines(comparison: AgentComparisonReport, width: number): string[] {
  const metricWidth = Math.min(26, Math.max(8, ...comparison.tests.map((test) => test.metric.length)));
  const lines = [`${comparison.agents.join(' vs ')} · winner per metric (paired test)`];
  for (const test of comparison.tests) {
    const versus = comparison.agents.length > 2 ? ` ${test.agent}:` : '';
    lines.push(
      `  ${test.metric.padEnd(metricWidth).slice(0, metricWidth)}${versus} ${formatScoreCell(test.against_mean)} → ${formatScoreCell(test.agent_mean)} ${formatDeltaCell(test.mean_delta).padStart(6)}  p ${formatP(test.p_value).padEnd(6)} ${winnerText(test)}`,
    );
  }
  lines.push(
    `  ${comparison.per_agent.map((totals) => `${totals.agent} ${formatAgentCost(totals)}, ${formatMs(totals.mean_latency_ms)}`).join(' · ')}`,
  );
  return lines.map((line) => (line.length > width ? `${line.slice(0, Math.max(1, width - 1))}…` : line));
}

export function AgentComparisonTable({ comparison, width }: { comparison: AgentComparisonReport; width: number }) {
  const lines = comparisonLines(comparison, width);
  return (
    <Box flexDirection="column">
      {lines.map((line, index) => (
        <Text key={index} bold={index === 0} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
