import type { Status } from '@parley/core';
import type Database from 'better-sqlite3';

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

const statusSums = `
  count(*) AS scenarios,
  sum(s.status = 'pass') AS pass, sum(s.status = 'warn') AS warn, sum(s.status = 'flaky') AS flaky,
  sum(s.status = 'fail') AS fail, sum(s.status = 'error') AS error, sum(s.status = 'skipped') AS skipped`;

type SummaryRecord = AgentRunSummary & { agent: string };

/**
 * The statements behind `Store.agentHistory`. The first frame of `parley tui` waits on it, so it
 * reads a bounded amount whatever the size of the history: one pass over the newest `scanRuns`
 * runs (runs by start time, then each run's results by primary key), and, only when the history is
 * longer than that, an agent index lookup for each wanted agent the pass did not fill (reading that
 * agent's rows of the index alone).
 */
export function prepareAgentHistory(database: Database.Database) {
  const recentOfSuite = database.prepare<[{ suite: string; scan: number }], SummaryRecord>(`
    WITH recent AS (
      SELECT id, started_at, rowid AS seq FROM runs WHERE suite = @suite ORDER BY started_at DESC, rowid DESC LIMIT @scan
    )
    SELECT s.agent, r.id AS run_id, r.started_at, ${statusSums}
    FROM recent AS r JOIN scenario_results AS s ON s.run_id = r.id AND s.attempt = 0
    GROUP BY s.agent, r.id ORDER BY r.started_at DESC, r.seq DESC`);
  const recentOfAll = database.prepare<[{ scan: number }], SummaryRecord>(`
    WITH recent AS (
      SELECT id, started_at, rowid AS seq FROM runs ORDER BY started_at DESC, rowid DESC LIMIT @scan
    )
    SELECT s.agent, r.id AS run_id, r.started_at, ${statusSums}
    FROM recent AS r JOIN scenario_results AS s ON s.run_id = r.id AND s.attempt = 0
    GROUP BY s.agent, r.id ORDER BY r.started_at DESC, r.seq DESC`);
  const runsOfSuite = database.prepare<[{ suite: string; scan: number }], { runs: number }>(
    `SELECT count(*) AS runs FROM (SELECT 1 FROM runs WHERE suite = @suite LIMIT @scan)`,
  );
  const runsOfAll = database.prepare<[{ scan: number }], { runs: number }>(`SELECT count(*) AS runs FROM (SELECT 1 FROM runs LIMIT @scan)`);
  // A loose index scan: one index seek per distinct agent instead of reading every result.
  const agentNames = database.prepare<[], { agent: string }>(`
    WITH RECURSIVE names (agent) AS (
      SELECT min(agent) FROM scenario_results
      UNION ALL
      SELECT (SELECT min(agent) FROM scenario_results WHERE agent > names.agent) FROM names WHERE names.agent IS NOT NULL
    )
    SELECT agent FROM names WHERE agent IS NOT NULL`);
  const ofAgent = database.prepare<[{ agent: string; suite: string | null; limit: number }], SummaryRecord>(`
    SELECT s.agent, r.id AS run_id, r.started_at, ${statusSums}
    FROM scenario_results AS s JOIN runs AS r ON r.id = s.run_id
    WHERE s.agent = @agent AND s.attempt = 0 AND (@suite IS NULL OR r.suite = @suite)
    GROUP BY r.id ORDER BY r.started_at DESC, r.rowid DESC LIMIT @limit`);

  return (options: AgentHistoryOptions = {}): AgentHistory => {
    const perAgent = options.perAgent ?? 20;
    const scan = options.scanRuns ?? 200;
    const history: AgentHistory = new Map();
    const records = options.suite === undefined ? recentOfAll.all({ scan }) : recentOfSuite.all({ suite: options.suite, scan });
    for (const record of records) {
      const runs = history.get(record.agent) ?? [];
      if (runs.length < perAgent) runs.push(summaryOf(record));
      history.set(record.agent, runs);
    }
    // When the history holds fewer runs than the pass reads, the pass has seen all of it.
    const runCount = (options.suite === undefined ? runsOfAll.get({ scan }) : runsOfSuite.get({ suite: options.suite, scan }))?.runs ?? 0;
    if (runCount < scan) return history;
    const wanted = options.agents ?? agentNames.all().map((row) => row.agent);
    for (const agent of wanted) {
      if ((history.get(agent)?.length ?? 0) >= perAgent) continue;
      const runs = ofAgent.all({ agent, suite: options.suite ?? null, limit: perAgent }).map(summaryOf);
      if (runs.length > 0) history.set(agent, runs);
    }
    return history;
  };
}

function summaryOf(record: SummaryRecord): AgentRunSummary {
  const { agent: _agent, ...summary } = record;
  return summary;
}

/**
 * The status of the newest reported result (attempt 0) of each of an agent's scenarios over the
 * runs `runIds` (the agent's recent runs): what the agent index shows after a partial run (a
 * `--scenario` selection), whose own counts would hide the failures of the scenarios it left out.
 * Scenario id → status, newest run first wins.
 */
export function prepareLatestScenarioStatuses(database: Database.Database) {
  const latest = database.prepare<[{ agent: string; runs: string }], { scenario_id: string; status: Status }>(`
    SELECT s.scenario_id, s.status
    FROM runs AS r JOIN scenario_results AS s ON s.run_id = r.id AND s.attempt = 0 AND s.agent = @agent
    WHERE r.id IN (SELECT value FROM json_each(@runs))
    ORDER BY r.started_at DESC, r.rowid DESC`);
  return (agent: string, runIds: readonly string[]): Map<string, Status> => {
    const statuses = new Map<string, Status>();
    for (const row of latest.all({ agent, runs: JSON.stringify(runIds) })) if (!statuses.has(row.scenario_id)) statuses.set(row.scenario_id, row.status);
    return statuses;
  };
}
