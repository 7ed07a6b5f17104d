import type { Status } from '@parley/core';
import type { SqlRow, SyncSql } from './sql/sync-sql.js';

/** How one agent's scenarios ended in one run (its reported results, attempt 0). */
export interface AgentRunSummary {
  run_id: string;
  started_at: string;
  /** Reported results of the agent's scenarios in the run. */
  scenarios: number;
  pass: number;
  warn: number;
  flaky: number;
  fail: number;
  error: number;
  skipped: number;
}

export interface AgentHistoryOptions {
  /** Only runs of this suite (by the `suite:` name of parley.yaml); every suite when absent. */
  suite?: string;
  /** Runs kept per agent, newest first (default 20). */
  perAgent?: number;
  /**
   * Agents looked up one by one through the agent index when the recent runs hold fewer than
   * `perAgent` of their runs (the suite's agents); default every agent name the store holds.
   * An agent outside this list shows only with the runs the recent window holds.
   */
  agents?: readonly string[];
  /** Recent runs read in one pass (default 200). */
  scanRuns?: number;
}

/** Agent name → its recent runs, newest first. Agents without any run in the suite are absent. */
export type AgentHistory = Map<string, AgentRunSummary[]>;

/** Counts of each status; CASE, not a comparison, so that both databases sum integers. */
export function statusCount(status: Status, column = 's.status'): string {
  return `sum(CASE WHEN ${column} = '${status}' THEN 1 ELSE 0 END)`;
}

const statusSums = `
  count(*) AS scenarios,
  ${statusCount('pass')} AS pass, ${statusCount('warn')} AS warn, ${statusCount('flaky')} AS flaky,
  ${statusCount('fail')} AS fail, ${statusCount('error')} AS error, ${statusCount('skipped')} AS skipped`;

type SummaryRecord = AgentRunSummary & { agent: string } & SqlRow;

/**
 * `Store.agentHistory`. The first frame of `parley tui` waits on it, so it reads a bounded amount
 * whatever the size of the history: one pass over the newest `scanRuns` runs (runs by start time,
 * then each run's results by primary key), and, only when the history is longer than that, an
 * agent index lookup for each wanted agent the pass did not fill (reading that agent's rows of the
 * index alone).
 */
export function readAgentHistory(sql: SyncSql, options: AgentHistoryOptions = {}): AgentHistory {
  const perAgent = options.perAgent ?? 20;
  const scan = options.scanRuns ?? 200;
  const suite = options.suite;
  const history: AgentHistory = new Map();
  const ofSuite = suite === undefined ? '' : 'WHERE suite = @suite';
  const params: Record<string, string | number> = suite === undefined ? { scan } : { suite, scan };
  const records = sql.all<SummaryRecord>(
    `WITH recent AS (
       SELECT id, started_at FROM runs ${ofSuite} ORDER BY started_at DESC, id DESC LIMIT @scan
     )
     SELECT s.agent, r.id AS run_id, r.started_at, ${statusSums}
     FROM recent AS r JOIN scenario_results AS s ON s.run_id = r.id AND s.attempt = 0
     GROUP BY s.agent, r.id, r.started_at ORDER BY r.started_at DESC, r.id DESC, s.agent`,
    params,
  );
  for (const record of records) {
    const runs = history.get(record.agent) ?? [];
    if (runs.length < perAgent) runs.push(summaryOf(record));
    history.set(record.agent, runs);
  }
  // When the history holds fewer runs than the pass reads, the pass has seen all of it.
  const runCount = sql.get<{ runs: number }>(`SELECT count(*) AS runs FROM (SELECT 1 FROM runs ${ofSuite} LIMIT @scan) AS scanned`, params)?.runs ?? 0;
  if (runCount < scan) return history;
  // A loose index scan: one index seek per distinct agent instead of reading every result.
  const wanted =
    options.agents ??
    sql
      .all<{ agent: string }>(
        `WITH RECURSIVE names (agent) AS (
           SELECT min(agent) FROM scenario_results
           UNION ALL
           SELECT (SELECT min(agent) FROM scenario_results WHERE agent > names.agent) FROM names WHERE names.agent IS NOT NULL
         )
         SELECT agent FROM names WHERE agent IS NOT NULL`,
      )
      .map((row) => row.agent);
  for (const agent of wanted) {
    if ((history.get(agent)?.length ?? 0) >= perAgent) continue;
    const runs = sql
      .all<SummaryRecord>(
        `SELECT s.agent, r.id AS run_id, r.started_at, ${statusSums}
         FROM scenario_results AS s JOIN runs AS r ON r.id = s.run_id
         WHERE s.agent = @agent AND s.attempt = 0 ${suite === undefined ? '' : 'AND r.suite = @suite'}
         GROUP BY s.agent, r.id, r.started_at ORDER BY r.started_at DESC, r.id DESC LIMIT @limit`,
        suite === undefined ? { agent, limit: perAgent } : { agent, suite, limit: perAgent },
      )
      .map(summaryOf);
    if (runs.length > 0) history.set(agent, runs);
  }
  return history;
}

function summaryOf(record: SummaryRecord): AgentRunSummary {
  const { agent: _agent, ...summary } = record;
  return summary;
}

/** Run ids per `IN (…)` list. */
const runIdsPerStatement = 500;

/**
 * The status of the newest reported result (attempt 0) of each of an agent's scenarios over the
 * runs `runIds` (the agent's recent runs): what the agent index shows after a partial run (a
 * `--scenario` selection), whose own counts would hide the failures of the scenarios it left out.
 * Scenario id → status, newest run first wins.
 */
export function readLatestScenarioStatuses(sql: SyncSql, agent: string, runIds: readonly string[]): Map<string, Status> {
  const rows: Array<{ scenario_id: string; status: Status; started_at: string; run_id: string }> = [];
  for (let start = 0; start < runIds.length; start += runIdsPerStatement) {
    const chunk = runIds.slice(start, start + runIdsPerStatement);
    rows.push(
      ...sql.all<{ scenario_id: string; status: Status; started_at: string; run_id: string }>(
        `SELECT s.scenario_id, s.status, r.started_at, r.id AS run_id
         FROM runs AS r JOIN scenario_results AS s ON s.run_id = r.id AND s.attempt = 0 AND s.agent = ?
         WHERE r.id IN (${chunk.map(() => '?').join(', ')})`,
        [agent, ...chunk],
      ),
    );
  }
  // Newest run first (by start time, then id, as runs are listed).
  rows.sort((a, b) => (a.started_at === b.started_at ? compareText(b.run_id, a.run_id) : compareText(b.started_at, a.started_at)));
  const statuses = new Map<string, Status>();
  for (const row of rows) if (!statuses.has(row.scenario_id)) statuses.set(row.scenario_id, row.status);
  return statuses;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
