import type { AgentComparisonReport } from '@parley/reports';
import type { CaseSummary } from '../../src/page-data.js';
import { duration, score, signed, usd } from '../format.js';
import { href } from '../router.js';
import { StatusBadge } from '../status-badge.js';
import { useCaseDetail } from './case-view.js';
import { Conversation } from './conversation.js';
import { Expectations } from './expectations.js';
import { HeadRow } from '../table-head.js';

/** A comparison run: per agent its totals, the winner per metric, and each scenario's agents side by side. */
export function ComparisonOverview({ comparison, cases }: { comparison: AgentComparisonReport; cases: readonly CaseSummary[] }) {
  const scenarios = [...new Set(cases.map((entry) => entry.scenario))];
  const byScenario = new Map<string, Map<string, CaseSummary>>();
  for (const entry of cases) {
    const agents = byScenario.get(entry.scenario) ?? new Map<string, CaseSummary>();
    agents.set(entry.agent, entry);
    byScenario.set(entry.scenario, agents);
  }
  const metrics = [...new Set(comparison.tests.map((test) => test.metric))];
  return (
    <section class="comparison" aria-labelledby="comparison-heading">
      <h2 id="comparison-heading">Agents compared: {comparison.agents.join(' vs ')}</h2>
      <table>
        <caption>Per agent</caption>
        <thead>
          <HeadRow columns={['Agent', ['Cases', 'num'], 'Statuses', ['Cost', 'num'], ['Mean latency', 'num'], ['p95 latency', 'num']]} />
        </thead>
        <tbody>
          {comparison.per_agent.map((totals) => (
            <tr key={totals.agent}>
              <th scope="row">{totals.agent}</th>
              <td class="num">{totals.cases}</td>
              <td>
                {(['pass', 'fail', 'error', 'warn', 'flaky'] as const)
                  .filter((status) => totals.counts[status] > 0)
                  .map((status) => `${totals.counts[status]} ${status}`)
                  .join(', ')}
              </td>
              <td class="num">{usd(totals.cost.usd)}</td>
              <td class="num">{totals.mean_latency_ms === null ? '–' : duration(totals.mean_latency_ms)}</td>
              <td class="num">{totals.p95_latency_ms === null ? '–' : duration(totals.p95_latency_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table class="winners">
        <caption>Winner per metric ({comparison.statistics_note})</caption>
        <thead>
          <HeadRow columns={['Metric', 'Agent', ['Mean', 'num'], 'Against', ['Mean', 'num'], ['Δ (95 % interval)', 'num'], ['Pairs', 'num'], ['p', 'num'], 'Winner']} />
        </thead>
        <tbody>
          {comparison.tests.length === 0 ? (
            <tr>
              <td colSpan={9}>No metric was scored by two agents on the same scenario.</td>
            </tr>
          ) : (
            comparison.tests.map((test) => (
              <tr key={test.metric + test.agent}>
                <th scope="row">
                  <code>{test.metric}</code>
                </th>
                <td>{test.agent}</td>
                <td class="num">{score(test.agent_mean)}</td>
                <td>{test.against}</td>
                <td class="num">{score(test.against_mean)}</td>
                <td class="num">
                  {signed(test.mean_delta)} ({signed(test.interval.low)} to {signed(test.interval.high)})
                </td>
                <td class="num">{test.pairs}</td>
                <td class="num">{test.p_value < 0.001 ? '< 0.001' : test.p_value.toFixed(3)}</td>
                <td>{test.winner === null ? 'no clear winner' : <strong>{test.winner}</strong>}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <table class="side-by-side">
        <caption>Scenarios: each agent's status and scores{metrics.length > 0 ? ` (${metrics.join(', ')})` : ''}</caption>
        <thead>
          <tr>
            <th scope="col">Scenario</th>
            {comparison.agents.map((agent) => (
              <th scope="col" key={agent}>
                {agent}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {scenarios.map((scenario) => (
            <tr key={scenario}>
              <th scope="row">
                <a href={href('compare', scenario)}>{scenario}</a>
              </th>
              {comparison.agents.map((agent) => {
                const entry = byScenario.get(scenario)?.get(agent);
                const scores = comparison.scores.filter((row) => row.scenario_id === scenario);
                return (
                  <td key={agent}>
                    {entry ? <StatusBadge status={entry.status} /> : '–'}
                    {scores.length > 0 ? (
                      <span class="muted">
                        {' '}
                        {scores
                          .filter((row) => row.scores[agent] !== null && row.scores[agent] !== undefined)
                          .map((row) => `${row.metric} ${score(row.scores[agent])}`)
                          .join(' · ')}
                      </span>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** One scenario's agents side by side: each agent's case with its expectations and conversation, in columns. */
export function ComparisonScenario({ scenario, agents, cases }: { scenario: string; agents: readonly string[]; cases: readonly CaseSummary[] }) {
  const entries = agents.map((agent) => cases.find((entry) => entry.scenario === scenario && entry.agent === agent));
  return (
    <article class="compare-scenario" aria-labelledby="compare-heading">
      <nav class="case-nav" aria-label="Comparison">
        <a href={href('compare')}>← Comparison</a>
        <a href={href()}>All cases</a>
      </nav>
      <h2 id="compare-heading">
        <code>{scenario}</code> side by side
      </h2>
      <div class="columns" style={{ gridTemplateColumns: `repeat(${agents.length}, minmax(0, 1fr))` }}>
        {entries.map((entry, index) => (
          <AgentColumn key={agents[index]} agent={agents[index]!} entry={entry} />
        ))}
      </div>
    </article>
  );
}

function AgentColumn({ agent, entry }: { agent: string; entry: CaseSummary | undefined }) {
  const detail = useCaseDetail(entry);
  return (
    <section class="agent-column" aria-label={`Agent ${agent}`}>
      <h3>
        {agent} {entry ? <StatusBadge status={entry.status} /> : null}
      </h3>
      {entry === undefined ? (
        <p>This agent has no case for the scenario.</p>
      ) : (
        <>
          <p>
            <a href={href('case', entry.id)}>{entry.id}</a>: {entry.reason}
          </p>
          {detail === undefined ? (
            <p>Loading…</p>
          ) : (
            <>
              <Expectations view={detail.view} metrics={detail.result.metrics} caption={`Expectations of ${agent}`} />
              {detail.result.metadata_only || detail.result.transcript === undefined ? (
                <p class="withheld" data-withheld="true">
                  {detail.result.metadata_only ? 'metadata_only: the conversation is kept out of every report.' : 'No conversation was recorded.'}
                </p>
              ) : (
                <Conversation transcript={detail.result.transcript} view={detail.view} idPrefix={`${agent}-`} />
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
