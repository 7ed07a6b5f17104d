import type { Status } from '@parley/core';
import { openStore, storeExists, storeUrlFor, type AgentHistory, type AgentRunSummary } from '@parley/store';
import { loadSuiteAgents, type AgentFamily, type SuiteAgents } from './suite-agents.js';

/** Status of an agent by its last run: `failing` when any scenario failed or errored. */
export type AgentRunStatus = 'passing' | 'failing' | 'never run';

export const AGENT_RUN_STATUSES: readonly AgentRunStatus[] = ['passing', 'failing', 'never run'];

/** One line of the agent index. */
export interface AgentIndexRow {
  name: string;
  /** `openai`, `http`, …; null for an agent known only from the history (no suite loaded, or since removed). */
  kind: string | null;
  family: AgentFamily | null;
  /** Scenarios in the suite; null when the agent is not in the loaded suite. */
  scenarios: number | null;
  tags: string[];
  /** The agent's newest run, with its pass rate. */
  lastRun: { run_id: string; started_at: string; passRate: number | null; scenarios: number } | null;
  /**
   * When the newest run was partial (it ran fewer of the agent's scenarios than the suite has, as
   * a `--scenario` or `--tag` selection does): the newest result of each scenario over the recent
   * runs. The pass rate and the status are then this one's, so a partial run of six passing
   * scenarios does not hide the failures of the fourteen it left out (docs/tui.md, Agent index).
   */
  latest?: { passRate: number | null; scenarios: number; failing: number };
  /** Pass rates of its recent runs, oldest first (the sparkline). */
  trend: Array<number | null>;
  status: AgentRunStatus;
}

/**
 * Share of an agent's scenarios in a run that passed: `pass` and `warn` count as passed (neither
 * fails a run: docs/file-formats.md, "Exit codes"), `flaky`, `fail` and `error` do not, `skipped` ones were not evaluated
 * and are left out. Null when nothing was evaluated.
 */
export function agentPassRate(run: AgentRunSummary): number | null {
  const evaluated = run.scenarios - run.skipped;
  return evaluated === 0 ? null : (run.pass + run.warn) / evaluated;
}

/** `failing` when the newest run has a failed or errored scenario of the agent, `never run` without runs. */
export function agentRunStatus(runs: readonly AgentRunSummary[]): AgentRunStatus {
  const last = runs[0];
  if (last === undefined) return 'never run';
  return last.fail + last.error > 0 ? 'failing' : 'passing';
}

/**
 * The unified agent index (docs/tui.md, Agent index): every agent of the suite, prompt and service alike, plus agents
 * the history knows that the suite does not (or every agent of the history when no suite loaded),
 * sorted by name.
 */
export function buildAgentIndex(suite: SuiteAgents | undefined, history: AgentHistory, latestOf?: LatestStatuses): AgentIndexRow[] {
  const rows = new Map<string, AgentIndexRow>();
  for (const agent of suite?.agents ?? []) {
    const runs = history.get(agent.name) ?? [];
    const row: AgentIndexRow = { ...rowOfRuns(agent.name, runs), kind: agent.kind, family: agent.family, scenarios: agent.scenarios, tags: agent.tags };
    const last = runs[0];
    const partial = last !== undefined && last.scenarios < agent.scenarios;
    rows.set(agent.name, partial && latestOf ? withLatest(row, latestOf(agent.name, runs.map((run) => run.run_id))) : row);
  }
  for (const [name, runs] of history) if (!rows.has(name)) rows.set(name, rowOfRuns(name, runs));
  return [...rows.values()].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}

/** The newest reported status of each of an agent's scenarios over the given runs (see `Store.latestScenarioStatuses`). */
export type LatestStatuses = (agent: string, runIds: readonly string[]) => ReadonlyMap<string, Status>;

/** The row with its pass rate and status from the newest result of each scenario (after a partial run). */
function withLatest(row: AgentIndexRow, statuses: ReadonlyMap<string, Status>): AgentIndexRow {
  let passed = 0;
  let evaluated = 0;
  let failing = 0;
  for (const status of statuses.values()) {
    if (status === 'skipped') continue;
    evaluated += 1;
    if (status === 'pass' || status === 'warn') passed += 1;
    if (status === 'fail' || status === 'error') failing += 1;
  }
  const latest = { passRate: evaluated === 0 ? null : passed / evaluated, scenarios: statuses.size, failing };
  return { ...row, latest, status: failing > 0 ? 'failing' : row.status };
}

function rowOfRuns(name: string, runs: readonly AgentRunSummary[]): AgentIndexRow {
  const last = runs[0];
  return {
    name,
    kind: null,
    family: null,
    scenarios: null,
    tags: [],
    lastRun: last === undefined ? null : { run_id: last.run_id, started_at: last.started_at, passRate: agentPassRate(last), scenarios: last.scenarios },
    trend: runs.map(agentPassRate).reverse(),
    status: agentRunStatus(runs),
  };
}

/** What the index is narrowed to; an absent field does not filter. */
export interface AgentIndexFilter {
  /** A family (`prompt`, `service`) or a kind (`openai`, `http`, …). */
  kind?: string;
  tag?: string;
  status?: AgentRunStatus;
}

export function filterAgentIndex(rows: readonly AgentIndexRow[], filter: AgentIndexFilter): AgentIndexRow[] {
  return rows.filter(
    (row) =>
      (filter.kind === undefined || row.family === filter.kind || row.kind === filter.kind) &&
      (filter.tag === undefined || row.tags.includes(filter.tag)) &&
      (filter.status === undefined || row.status === filter.status),
  );
}

/** The values each filter can take over these rows: families first, then the kinds present; tags sorted. */
export function agentIndexChoices(rows: readonly AgentIndexRow[]): { kinds: string[]; tags: string[]; statuses: AgentRunStatus[] } {
  const families = (['prompt', 'service'] as const).filter((family) => rows.some((row) => row.family === family));
  const kinds = [...new Set(rows.flatMap((row) => (row.kind === null ? [] : [row.kind])))].sort();
  const tags = [...new Set(rows.flatMap((row) => row.tags))].sort();
  return { kinds: [...families, ...kinds], tags, statuses: [...AGENT_RUN_STATUSES] };
}

export interface AgentIndex {
  rows: AgentIndexRow[];
  /** The loaded suite's name and file; absent when it did not load. */
  suite?: { name: string; file: string };
  /** Why the suite or the history could not be read; the index then shows what it has. */
  problems: string[];
}

export interface ReadAgentIndexOptions {
  suitePath: string;
  /** `.parley/parley.db`; a missing file is an empty history (it is not created). */
  storePath: string;
  /** Runs per agent in the trend (default 20). */
  perAgent?: number;
}

/**
 * What `parley tui` opens on: the suite's agents joined with their recent runs. Never throws: a
 * suite that does not load or a store that cannot be opened becomes a problem line, and the index
 * shows whatever the other source gave (all agents of the history when there is no suite).
 */
export function readAgentIndex(options: ReadAgentIndexOptions): AgentIndex {
  const problems: string[] = [];
  const loaded = loadSuiteAgents(options.suitePath);
  const suite = loaded.ok ? loaded.value : undefined;
  if (!loaded.ok) problems.push(`suite did not load: ${loaded.error}`);
  let history: AgentHistory = new Map();
  let rows: AgentIndexRow[] | undefined;
  if (storeExists(options.storePath)) {
    try {
      const store = openStore(options.storePath);
      try {
        history = store.agentHistory({
          ...(suite ? { suite: suite.suite, agents: suite.agents.map((agent) => agent.name) } : {}),
          perAgent: options.perAgent ?? 20,
        });
        // After a partial run, the newest result of each scenario (read while the store is open).
        rows = buildAgentIndex(suite, history, (agent, runIds) => store.latestScenarioStatuses(agent, runIds));
      } finally {
        store.close();
      }
    } catch (error) {
      // A team store's error names its server (password as ***); the local file is named only when it is the store.
      const where = storeUrlFor(options.storePath) === undefined ? ` ${options.storePath}` : '';
      problems.push(`run history${where} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return {
    rows: rows ?? buildAgentIndex(suite, history),
    ...(suite ? { suite: { name: suite.suite, file: suite.file } } : {}),
    problems,
  };
}
