import type { Status } from '@parley/core';
import { statusCount } from '../agent-history.js';
import type { SqlRow, SyncSql } from '../sql/sync-sql.js';
import { runColumns, type RunRecord, type RunRow, runRowFromRecord } from '../run-rows.js';

/** A run as seen from one agent: the run, and how that agent's scenarios ended in it. */
export interface AgentRunRow extends RunRow {
  agent: string;
  /** Reported results (attempt 0) of the agent's scenarios in the run. */
  agent_scenarios: number;
  /** Every status, zero when absent. */
  agent_counts: Record<Status, number>;
}

export interface AgentRunsOptions {
  limit?: number;
  offset?: number;
}

type AgentRunRecord = RunRecord & { agent_scenarios: number } & Record<`agent_${Status}`, number> & SqlRow;

const statuses: readonly Status[] = ['pass', 'fail', 'warn', 'flaky', 'error', 'skipped'];

/**
 * `Store.listRunsOfAgent`: the runs that hold scenarios of one agent, newest first, one page at a
 * time. Runs are walked newest first and each is asked (by its primary key) whether it has a
 * result of the agent, until the page is full; only the page's results are then counted. An agent
 * that is in most runs costs a page's worth of lookups whatever the size of the history; a rare
 * one costs one lookup per stored run at worst.
 */
export function readAgentRuns(sql: SyncSql, agent: string, options: AgentRunsOptions = {}): AgentRunRow[] {
  const records = sql.all<AgentRunRecord>(
    `WITH page AS (
       SELECT r.id, r.started_at FROM runs AS r
       WHERE EXISTS (SELECT 1 FROM scenario_results AS s WHERE s.run_id = r.id AND s.attempt = 0 AND s.agent = @agent)
       ORDER BY r.started_at DESC, r.id DESC LIMIT @limit OFFSET @offset
     )
     SELECT ${runColumns}, count(*) AS agent_scenarios,
       ${statuses.map((status) => `${statusCount(status)} AS agent_${status}`).join(', ')}
     FROM page AS p
     JOIN runs AS r ON r.id = p.id
     JOIN scenario_results AS s ON s.run_id = p.id AND s.attempt = 0 AND s.agent = @agent
     GROUP BY r.id ORDER BY r.started_at DESC, r.id DESC`,
    // No LIMIT is a large one (SQLite reads -1 as none, PostgreSQL does not).
    { agent, limit: options.limit ?? Number.MAX_SAFE_INTEGER, offset: options.offset ?? 0 },
  );
  return records.map((record) => agentRunRowFromRecord(agent, record));
}

function agentRunRowFromRecord(agent: string, record: AgentRunRecord): AgentRunRow {
  const counts: Record<Status, number> = { pass: 0, fail: 0, warn: 0, flaky: 0, error: 0, skipped: 0 };
  for (const status of statuses) counts[status] = record[`agent_${status}`];
  return { ...runRowFromRecord(record), agent, agent_scenarios: record.agent_scenarios, agent_counts: counts };
}
