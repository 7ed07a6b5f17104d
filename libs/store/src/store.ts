import { statSync } from 'node:fs';
import { ConfigError, type ScenarioResult, type Status } from '@parley/core';
import { type AgentHistory, type AgentHistoryOptions, readAgentHistory, readLatestScenarioStatuses } from './agent-history.js';
import { type FlakyMark, flakyMarks } from './flaky-marks.js';
import { openSql } from './open-sql.js';
import { type AgentRunRow, type AgentRunsOptions, readAgentRuns } from './run-history/agent-runs.js';
import { type PrunePlan, type PruneSelection, runPruning } from './run-history/prune-runs.js';
import {
  type NewRun,
  newRunParameters,
  type RunFinish,
  runColumns,
  runFinishParameters,
  type RunRecord,
  type RunRow,
  runRowFromRecord,
} from './run-rows.js';
import {
  metricScoreColumns,
  type MetricScoreRecord,
  metricScoreParameters,
  scenarioResultColumns,
  scenarioResultFromRecords,
  scenarioResultParameters,
  type ScenarioResultRecord,
} from './scenario-rows.js';
import { insertRows } from './sql/insert-rows.js';
import type { SqlRow, SqlValue, SyncSql } from './sql/sync-sql.js';

/** The attempt number of a scenario's reported result; `--repeat N` stores repetitions as 1..N. */
export const reportedAttempt = 0;

/** How many runs an ambiguous id prefix names at most in its error message. */
const ambiguousMatchesShown = 5;

export interface ListRunsOptions {
  suite?: string;
  limit?: number;
  offset?: number;
}

export interface ScenarioResultsOptions {
  /**
   * Leaves out the transcript of `metadata_only` results (docs/privacy.md,
   * "metadata_only scenarios"): for exports and reports. The store keeps it so that a reviewer can
   * open it explicitly in the TUI.
   */
  omitMetadataOnlyTranscripts?: boolean;
}

/** One repetition of a scenario under `--repeat`. */
export interface ScenarioAttempt {
  attempt: number;
  result: ScenarioResult;
}

/** One stored score of a scenario's metric, for trends and `compare`. */
export interface MetricHistoryEntry {
  run_id: string;
  suite: string;
  started_at: string;
  version: string;
  score: number | null;
  threshold: number | null;
  passed: boolean;
  error: boolean;
  reason: string;
}

/**
 * The run history: `.parley/parley.db`, or the team's PostgreSQL database when PARLEY_DATABASE_URL
 * is set (docs/file-formats.md, "Run outputs"). Run folders stay beside `path` either way.
 */
export interface Store {
  readonly path: string;
  /** Throws when a run with this id exists already. */
  createRun(run: NewRun): void;
  /**
   * Saves a result with its metric scores and transcript in one transaction, replacing an earlier
   * save of the same (run, scenario, attempt). `attempt` 0 (the default) is the scenario's reported
   * result; `--repeat N` saves each repetition as 1..N and then the combined result as 0.
   */
  saveScenarioResult(runId: string, result: ScenarioResult, attempt?: number): void;
  /**
   * Saves many reported results (attempt 0) in one transaction: all or none. For imports (merged
   * shard reports), and for a run in progress, which saves its finished results a few at a time
   * (at most 16, or after 200 ms) and all of them at once on Ctrl-C (the runner's batched saves).
   */
  saveScenarioResults(runId: string, results: readonly ScenarioResult[]): void;
  /** Throws when the run does not exist. */
  finishRun(runId: string, finish: RunFinish): void;
  /** Newest first (by `started_at`, then by id: run ids begin with their start time). */
  listRuns(options?: ListRunsOptions): RunRow[];
  /** Runs that hold scenarios of `agent`, newest first, with that agent's counts (the TUI's runs of an agent). */
  listRunsOfAgent(agent: string, options?: AgentRunsOptions): AgentRunRow[];
  /**
   * The run with this id, or else the one run whose id starts with it; undefined when none does.
   * A prefix that several runs share is a `ConfigError` naming them (the user typed it).
   */
  getRun(idOrPrefix: string): RunRow | undefined;
  /** The reported results (attempt 0) of a run with metrics and transcript, sorted by scenario id. */
  getScenarioResults(runId: string, options?: ScenarioResultsOptions): ScenarioResult[];
  /** The repetitions (attempts 1..N) of one scenario, in attempt order. */
  getScenarioAttempts(runId: string, scenarioId: string): ScenarioAttempt[];
  /** Scenarios of the run that have a reported result, sorted: what `--resume` skips. */
  finishedScenarioIds(runId: string): string[];
  /** Scores of one scenario's metric in reported results across runs, newest run first. */
  metricHistory(scenarioId: string, metric: string, limit?: number): MetricHistoryEntry[];
  /** Each agent's recent runs with the statuses of its scenarios, newest first (the TUI's agent index). */
  agentHistory(options?: AgentHistoryOptions): AgentHistory;
  /** The newest reported status of each of an agent's scenarios over the runs `runIds` (scenario id → status). */
  latestScenarioStatuses(agent: string, runIds: readonly string[]): Map<string, Status>;
  /** Marks a scenario of a suite flaky (triage), replacing an earlier mark of it. */
  markFlaky(mark: FlakyMark): void;
  /** Removes the scenario's flaky mark; false when it had none. */
  unmarkFlaky(suite: string, scenarioId: string): boolean;
  /** The scenario's flaky mark, if it has one. */
  flakyMark(suite: string, scenarioId: string): FlakyMark | undefined;
  /** Flaky marks of a suite (every suite when absent), sorted by suite and scenario id. */
  flakyMarks(suite?: string): FlakyMark[];
  /**
   * The runs of a suite its retention removes, newest first, and those outside the limits it keeps
   * (docs/file-formats.md, "Run history"). `measure: false` skips counting their rows' bytes.
   */
  planPrune(selection: PruneSelection, options?: { measure?: boolean }): PrunePlan;
  /**
   * Deletes runs with all their rows (results, scores, judge agreement, spend) in one transaction;
   * returns how many existed. `onRemoved` is told each run inside the transaction.
   */
  removeRuns(runIds: readonly string[], onRemoved?: (runId: string, index: number) => void): number;
  /**
   * The database file and its write-ahead log, in bytes (0 for an in-memory store); on PostgreSQL
   * the database's size on the server.
   */
  databaseBytes(): number;
  /**
   * The database's pages, and how many of them are free (left by deleted rows). None on
   * PostgreSQL, whose autovacuum reuses the space of deleted rows: a prune never compacts it.
   */
  databasePages(): { total: number; free: number };
  /** Rewrites the database without its free pages (VACUUM) and empties the write-ahead log (SQLite; nothing on PostgreSQL). */
  compact(): void;
  /** Folds the write-ahead log into the database and empties it (SQLite; nothing on PostgreSQL). */
  checkpoint(): void;
  close(): void;
}

/**
 * Opens the store at `path` (`':memory:'` for a throwaway one), creating the file and its folders
 * and upgrading an older schema; or the PostgreSQL database PARLEY_DATABASE_URL names, whose run
 * folders are still written beside `path`. A database written by a newer Parley is refused with a
 * `DatabaseVersionError`.
 *
 * @example
 * const store = openStore('.parley/parley.db');
 * store.createRun({ id, suite, mode: 'replay', started_at, parley_version, options: {}, out_dir });
 * store.saveScenarioResult(id, result);
 * store.finishRun(id, { status: 'pass', exit_code: 0, finished_at, duration_ms, cost, counts });
 * store.close();
 */
export function openStore(path: string): Store {
  return new SqlStore(path, openSql(path));
}

/** LIMIT for "no limit": SQLite's -1 means that, PostgreSQL's does not, and both take a large one. */
const noLimit = Number.MAX_SAFE_INTEGER;

/** Scenario ids per `IN (…)` list when replacing earlier saves. */
const idsPerStatement = 500;

class SqlStore implements Store {
  private readonly flaky: ReturnType<typeof flakyMarks>;
  private readonly pruning: ReturnType<typeof runPruning>;

  constructor(
    readonly path: string,
    private readonly sql: SyncSql,
  ) {
    this.flaky = flakyMarks(sql);
    this.pruning = runPruning(sql);
  }

  /**
   * Replaces the rows of `results` (one attempt of each): their earlier saves go (their metric
   * scores with them: ON DELETE CASCADE), then every result is one row of a multi-row INSERT and
   * every score one row of another. Callers wrap it in a transaction. On PostgreSQL a batch of
   * results costs a handful of round trips, whatever its size.
   */
  private writeScenarioResults(runId: string, results: readonly ScenarioResult[], attempt: number): void {
    const ids = [...new Set(results.map((result) => result.scenario_id))];
    for (let start = 0; start < ids.length; start += idsPerStatement) {
      const chunk = ids.slice(start, start + idsPerStatement);
      this.sql.run(`DELETE FROM scenario_results WHERE run_id = ? AND attempt = ? AND scenario_id IN (${chunk.map(() => '?').join(', ')})`, [runId, attempt, ...chunk]);
    }
    // A result saved twice in one batch: the later one wins, as two saves in a row would.
    const latest = new Map(results.map((result) => [result.scenario_id, result]));
    const resultRows: SqlValue[][] = [];
    const scoreRows: SqlValue[][] = [];
    for (const result of latest.values()) {
      const record = scenarioResultParameters(runId, result, attempt);
      resultRows.push(scenarioResultColumns.map((column) => record[column]));
      result.metrics.forEach((metric, position) => {
        const score = metricScoreParameters(runId, result.scenario_id, attempt, metric, position);
        scoreRows.push(metricScoreColumns.map((column) => score[column]));
      });
    }
    insertRows(this.sql, 'scenario_results', scenarioResultColumns, resultRows);
    insertRows(this.sql, 'metric_scores', metricScoreColumns, scoreRows);
  }

  createRun(run: NewRun): void {
    try {
      this.sql.run(
        `INSERT INTO runs (id, suite, mode, started_at, git_sha, config_fingerprint, parley_version, options_json, out_dir)
         VALUES (@id, @suite, @mode, @started_at, @git_sha, @config_fingerprint, @parley_version, @options_json, @out_dir)`,
        newRunParameters(run),
      );
    } catch (error) {
      if (isUniqueFailure(error)) throw new Error(`${this.sql.shown}: a run "${run.id}" exists already (UNIQUE run id)`, { cause: error });
      throw error;
    }
  }

  saveScenarioResult(runId: string, result: ScenarioResult, attempt: number = reportedAttempt): void {
    if (!Number.isSafeInteger(attempt) || attempt < 0) {
      throw new RangeError(`attempt must be a whole number ≥ 0, got ${attempt}`);
    }
    this.withRunCheck(runId, () => this.sql.transaction(() => this.writeScenarioResults(runId, [result], attempt)));
  }

  saveScenarioResults(runId: string, results: readonly ScenarioResult[]): void {
    if (results.length === 0) return;
    this.withRunCheck(runId, () => this.sql.transaction(() => this.writeScenarioResults(runId, results, reportedAttempt)));
  }

  /** Turns the database's bare foreign-key failure into a message that names the missing run. */
  private withRunCheck(runId: string, save: () => void): void {
    try {
      save();
    } catch (error) {
      if (isForeignKeyFailure(error)) {
        throw new Error(`${this.sql.shown}: no run "${runId}" to save results into (createRun first)`, { cause: error });
      }
      throw error;
    }
  }

  finishRun(runId: string, finish: RunFinish): void {
    const outcome = this.sql.run(
      `UPDATE runs SET status = @status, exit_code = @exit_code, finished_at = @finished_at, duration_ms = @duration_ms,
         input_tokens = @input_tokens, output_tokens = @output_tokens, cost_usd = @cost_usd, calls = @calls,
         counts_json = @counts_json, git_sha = COALESCE(@git_sha, git_sha)
       WHERE id = @id`,
      runFinishParameters(runId, finish),
    );
    if (outcome.changes === 0) throw new Error(`${this.sql.shown}: no run "${runId}" to finish`);
  }

  listRuns(options: ListRunsOptions = {}): RunRow[] {
    const page = { limit: options.limit ?? noLimit, offset: options.offset ?? 0 };
    const records =
      options.suite === undefined
        ? this.sql.all<RunRecord & SqlRow>(`SELECT ${runColumns} FROM runs AS r ORDER BY r.started_at DESC, r.id DESC LIMIT @limit OFFSET @offset`, page)
        : this.sql.all<RunRecord & SqlRow>(
            `SELECT ${runColumns} FROM runs AS r WHERE r.suite = @suite ORDER BY r.started_at DESC, r.id DESC LIMIT @limit OFFSET @offset`,
            { ...page, suite: options.suite },
          );
    return records.map(runRowFromRecord);
  }

  listRunsOfAgent(agent: string, options: AgentRunsOptions = {}): AgentRunRow[] {
    return readAgentRuns(this.sql, agent, options);
  }

  getRun(idOrPrefix: string): RunRow | undefined {
    if (idOrPrefix === '') return undefined;
    const exact = this.runRecord(idOrPrefix);
    if (exact !== undefined) return runRowFromRecord(exact);
    // Compared as text of the same length, not as a range of ids: PostgreSQL orders text by the
    // server's collation, which may not keep the ids that start with a prefix right after it.
    const matches = this.sql
      .all<{ id: string }>(`SELECT id FROM runs WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT ?`, [idOrPrefix.length, idOrPrefix, ambiguousMatchesShown + 1])
      .map((row) => row.id)
      .filter((id) => id.startsWith(idOrPrefix));
    const [only, ...others] = matches;
    if (only === undefined) return undefined;
    if (others.length > 0) {
      const shown = matches.slice(0, ambiguousMatchesShown).join(', ');
      const more = matches.length > ambiguousMatchesShown ? ', …' : '';
      throw new ConfigError(`run id "${idOrPrefix}" is ambiguous: it matches ${shown}${more}; give more of the id`);
    }
    const record = this.runRecord(only);
    return record === undefined ? undefined : runRowFromRecord(record);
  }

  private runRecord(id: string): RunRecord | undefined {
    return this.sql.get<RunRecord & SqlRow>(`SELECT ${runColumns} FROM runs AS r WHERE r.id = ?`, [id]);
  }

  getScenarioResults(runId: string, options: ScenarioResultsOptions = {}): ScenarioResult[] {
    const omit = options.omitMetadataOnlyTranscripts === true ? 1 : 0;
    const records = this.sql.all<ScenarioResultRecord & SqlRow>(
      `SELECT run_id, scenario_id, attempt, title, agent, gate, tags_json, language, metadata_only, status, reason,
         input_tokens, output_tokens, cost_usd, calls, error_json, session_json,
         CASE WHEN @omit = 1 AND metadata_only = 1 THEN NULL ELSE transcript_json END AS transcript_json
       FROM scenario_results WHERE run_id = @run_id AND attempt = @attempt ORDER BY scenario_id`,
      { run_id: runId, attempt: reportedAttempt, omit },
    );
    // Walks the run's results in scenario order and looks up each one's scores by the metric index.
    const metrics = groupByScenario(
      this.sql.all<MetricScoreRecord & SqlRow>(
        `SELECT m.* FROM scenario_results AS s
         JOIN metric_scores AS m ON m.scenario_id = s.scenario_id AND m.run_id = s.run_id AND m.attempt = s.attempt
         WHERE s.run_id = ? AND s.attempt = ? ORDER BY s.scenario_id, m.position`,
        [runId, reportedAttempt],
      ),
    );
    return records.map((record) => scenarioResultFromRecords(record, metrics.get(record.scenario_id) ?? []));
  }

  getScenarioAttempts(runId: string, scenarioId: string): ScenarioAttempt[] {
    const records = this.sql.all<ScenarioResultRecord & SqlRow>(
      `SELECT * FROM scenario_results WHERE run_id = ? AND scenario_id = ? AND attempt > 0 ORDER BY attempt`,
      [runId, scenarioId],
    );
    const metrics = this.sql.all<MetricScoreRecord & SqlRow>(
      `SELECT * FROM metric_scores WHERE run_id = ? AND scenario_id = ? AND attempt > 0 ORDER BY attempt, position`,
      [runId, scenarioId],
    );
    return records.map((record) => ({
      attempt: record.attempt,
      result: scenarioResultFromRecords(
        record,
        metrics.filter((metric) => metric.attempt === record.attempt),
      ),
    }));
  }

  finishedScenarioIds(runId: string): string[] {
    return this.sql
      .all<{ scenario_id: string }>(`SELECT scenario_id FROM scenario_results WHERE run_id = ? AND attempt = ? ORDER BY scenario_id`, [runId, reportedAttempt])
      .map((row) => row.scenario_id);
  }

  metricHistory(scenarioId: string, metric: string, limit = 20): MetricHistoryEntry[] {
    return this.sql
      .all<MetricHistoryRecord>(
        `SELECT m.run_id, r.suite, r.started_at, m.version, m.score, m.threshold, m.passed, m.error, m.reason
         FROM metric_scores AS m JOIN runs AS r ON r.id = m.run_id
         WHERE m.scenario_id = ? AND m.metric = ? AND m.attempt = ?
         ORDER BY r.started_at DESC, r.id DESC, m.position LIMIT ?`,
        [scenarioId, metric, reportedAttempt, limit],
      )
      .map((row) => ({
        ...row,
        passed: row.passed === 1,
        error: row.error === 1,
      }));
  }

  agentHistory(options: AgentHistoryOptions = {}): AgentHistory {
    return readAgentHistory(this.sql, options);
  }

  latestScenarioStatuses(agent: string, runIds: readonly string[]): Map<string, Status> {
    return readLatestScenarioStatuses(this.sql, agent, runIds);
  }

  markFlaky(mark: FlakyMark): void {
    this.flaky.mark(mark);
  }

  unmarkFlaky(suite: string, scenarioId: string): boolean {
    return this.flaky.unmark(suite, scenarioId);
  }

  flakyMark(suite: string, scenarioId: string): FlakyMark | undefined {
    return this.flaky.get(suite, scenarioId);
  }

  flakyMarks(suite?: string): FlakyMark[] {
    return this.flaky.list(suite);
  }

  planPrune(selection: PruneSelection, options: { measure?: boolean } = {}): PrunePlan {
    return this.pruning.plan(selection, options);
  }

  removeRuns(runIds: readonly string[], onRemoved?: (runId: string, index: number) => void): number {
    return this.pruning.remove(runIds, onRemoved);
  }

  databaseBytes(): number {
    if (this.sql.dialect === 'postgres') {
      return this.sql.get<{ bytes: number }>(`SELECT pg_database_size(current_database()) AS bytes`)?.bytes ?? 0;
    }
    if (this.path === ':memory:' || this.path === '') return 0;
    return [this.path, `${this.path}-wal`].reduce((sum, file) => {
      try {
        return sum + statSync(file).size;
      } catch {
        return sum;
      }
    }, 0);
  }

  databasePages(): { total: number; free: number } {
    // PostgreSQL's autovacuum reuses the room deleted rows leave; there is nothing to compact.
    if (this.sql.dialect === 'postgres') return { total: 0, free: 0 };
    const total = this.sql.get<{ page_count: unknown }>('PRAGMA page_count')?.page_count;
    const free = this.sql.get<{ freelist_count: unknown }>('PRAGMA freelist_count')?.freelist_count;
    return { total: typeof total === 'number' ? total : 0, free: typeof free === 'number' ? free : 0 };
  }

  compact(): void {
    if (this.sql.dialect === 'postgres') return;
    this.sql.exec('VACUUM');
    // VACUUM under WAL writes the new file through the log; TRUNCATE folds it in and empties it,
    // so the bytes freed show on disk now, not at some later checkpoint.
    this.checkpoint();
  }

  checkpoint(): void {
    if (this.sql.dialect === 'postgres') return;
    this.sql.all('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    this.sql.close();
  }
}

type MetricHistoryRecord = Omit<MetricHistoryEntry, 'passed' | 'error'> & { passed: number; error: number | null } & SqlRow;

function groupByScenario(records: MetricScoreRecord[]): Map<string, MetricScoreRecord[]> {
  const groups = new Map<string, MetricScoreRecord[]>();
  for (const record of records) {
    const group = groups.get(record.scenario_id);
    if (group === undefined) groups.set(record.scenario_id, [record]);
    else group.push(record);
  }
  return groups;
}

function errorCode(error: unknown): unknown {
  return error instanceof Error && 'code' in error ? error.code : undefined;
}

/** SQLite's code, or PostgreSQL's SQLSTATE 23503 (foreign_key_violation). */
function isForeignKeyFailure(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/** SQLite's codes, or PostgreSQL's SQLSTATE 23505 (unique_violation). */
function isUniqueFailure(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
