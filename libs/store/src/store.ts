import { statSync } from 'node:fs';
import { ConfigError, type ScenarioResult, type Status } from '@parley/core';
import type Database from 'better-sqlite3';
import { type AgentHistory, type AgentHistoryOptions, prepareAgentHistory, prepareLatestScenarioStatuses } from './agent-history.js';
import { type FlakyMark, prepareFlakyMarks } from './flaky-marks.js';
import { openDatabase } from './open-database.js';
import { type AgentRunRow, type AgentRunsOptions, prepareAgentRuns } from './run-history/agent-runs.js';
import { type PrunePlan, type PruneSelection, prepareRunPruning } from './run-history/prune-runs.js';
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
  type MetricScoreRecord,
  metricScoreParameters,
  scenarioResultFromRecords,
  scenarioResultParameters,
  type ScenarioResultRecord,
} from './scenario-rows.js';

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

/** The run history in `.parley/parley.db` (docs/file-formats.md, "Run outputs"). */
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
  /** Newest first (by `started_at`, then by insertion). */
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
  /** The database file and its write-ahead log, in bytes (0 for an in-memory store). */
  databaseBytes(): number;
  /** The database's pages, and how many of them are free (left by deleted rows). */
  databasePages(): { total: number; free: number };
  /** Rewrites the database without its free pages (VACUUM) and empties the write-ahead log. */
  compact(): void;
  /** Folds the write-ahead log into the database and empties it (its file shrinks to nothing). */
  checkpoint(): void;
  close(): void;
}

/**
 * Opens the store at `path` (`':memory:'` for a throwaway one), creating the file and its folders
 * and upgrading an older schema. A database written by a newer Parley is refused with a
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
  return new SqliteStore(path, openDatabase(path));
}

type Statements = ReturnType<typeof prepareStatements>;

class SqliteStore implements Store {
  private readonly statements: Statements;
  private readonly readAgentRuns: ReturnType<typeof prepareAgentRuns>;
  private readonly readAgentHistory: ReturnType<typeof prepareAgentHistory>;
  private readonly readLatestScenarioStatuses: ReturnType<typeof prepareLatestScenarioStatuses>;
  private readonly flaky: ReturnType<typeof prepareFlakyMarks>;
  private readonly pruning: ReturnType<typeof prepareRunPruning>;
  private readonly saveResultTransaction: Database.Transaction<(runId: string, result: ScenarioResult, attempt: number) => void>;
  private readonly saveResultsTransaction: Database.Transaction<(runId: string, results: readonly ScenarioResult[]) => void>;

  constructor(
    readonly path: string,
    private readonly database: Database.Database,
  ) {
    this.statements = prepareStatements(database);
    this.readAgentRuns = prepareAgentRuns(database);
    this.readAgentHistory = prepareAgentHistory(database);
    this.readLatestScenarioStatuses = prepareLatestScenarioStatuses(database);
    this.flaky = prepareFlakyMarks(database);
    this.pruning = prepareRunPruning(database);
    this.saveResultTransaction = database.transaction((runId: string, result: ScenarioResult, attempt: number) =>
      this.writeScenarioResult(runId, result, attempt),
    );
    this.saveResultsTransaction = database.transaction((runId: string, results: readonly ScenarioResult[]) => {
      for (const result of results) this.writeScenarioResult(runId, result, reportedAttempt);
    });
  }

  /** Replaces the result's rows; callers wrap it in a transaction. */
  private writeScenarioResult(runId: string, result: ScenarioResult, attempt: number): void {
    const key = [runId, result.scenario_id, attempt] as const;
    this.statements.deleteMetricScores.run(...key);
    this.statements.deleteScenarioResult.run(...key);
    this.statements.insertScenarioResult.run(scenarioResultParameters(runId, result, attempt));
    result.metrics.forEach((metric, position) => {
      this.statements.insertMetricScore.run(metricScoreParameters(runId, result.scenario_id, attempt, metric, position));
    });
  }

  createRun(run: NewRun): void {
    this.statements.insertRun.run(newRunParameters(run));
  }

  saveScenarioResult(runId: string, result: ScenarioResult, attempt: number = reportedAttempt): void {
    if (!Number.isSafeInteger(attempt) || attempt < 0) {
      throw new RangeError(`attempt must be a whole number ≥ 0, got ${attempt}`);
    }
    this.withRunCheck(runId, () => this.saveResultTransaction(runId, result, attempt));
  }

  saveScenarioResults(runId: string, results: readonly ScenarioResult[]): void {
    this.withRunCheck(runId, () => this.saveResultsTransaction(runId, results));
  }

  /** Turns SQLite's bare foreign-key failure into a message that names the missing run. */
  private withRunCheck(runId: string, save: () => void): void {
    try {
      save();
    } catch (error) {
      if (isForeignKeyFailure(error)) {
        throw new Error(`${this.path}: no run "${runId}" to save results into (createRun first)`, { cause: error });
      }
      throw error;
    }
  }

  finishRun(runId: string, finish: RunFinish): void {
    const outcome = this.statements.finishRun.run(runFinishParameters(runId, finish));
    if (outcome.changes === 0) throw new Error(`${this.path}: no run "${runId}" to finish`);
  }

  listRuns(options: ListRunsOptions = {}): RunRow[] {
    // SQLite reads a negative LIMIT as "no limit".
    const page = { limit: options.limit ?? -1, offset: options.offset ?? 0 };
    const records =
      options.suite === undefined
        ? this.statements.listRuns.all(page)
        : this.statements.listRunsOfSuite.all({ ...page, suite: options.suite });
    return records.map(runRowFromRecord);
  }

  listRunsOfAgent(agent: string, options: AgentRunsOptions = {}): AgentRunRow[] {
    return this.readAgentRuns(agent, options);
  }

  getRun(idOrPrefix: string): RunRow | undefined {
    if (idOrPrefix === '') return undefined;
    const exact = this.statements.getRun.get(idOrPrefix);
    if (exact !== undefined) return runRowFromRecord(exact);
    // Ids that start with the prefix sort right after it, so the first few ids ≥ prefix hold them all.
    const matches = this.statements.idsFrom
      .all(idOrPrefix, ambiguousMatchesShown + 1)
      .map((row) => row.id)
      .filter((id) => id.startsWith(idOrPrefix));
    const [only, ...others] = matches;
    if (only === undefined) return undefined;
    if (others.length > 0) {
      const shown = matches.slice(0, ambiguousMatchesShown).join(', ');
      const more = matches.length > ambiguousMatchesShown ? ', …' : '';
      throw new ConfigError(`run id "${idOrPrefix}" is ambiguous: it matches ${shown}${more}; give more of the id`);
    }
    const record = this.statements.getRun.get(only);
    return record === undefined ? undefined : runRowFromRecord(record);
  }

  getScenarioResults(runId: string, options: ScenarioResultsOptions = {}): ScenarioResult[] {
    const omit = options.omitMetadataOnlyTranscripts === true ? 1 : 0;
    const records = this.statements.resultsOfRun.all({ run_id: runId, attempt: reportedAttempt, omit });
    const metrics = groupByScenario(this.statements.metricScoresOfRun.all(runId, reportedAttempt));
    return records.map((record) => scenarioResultFromRecords(record, metrics.get(record.scenario_id) ?? []));
  }

  getScenarioAttempts(runId: string, scenarioId: string): ScenarioAttempt[] {
    const records = this.statements.attemptsOfScenario.all(runId, scenarioId);
    const metrics = this.statements.metricScoresOfAttempts.all(runId, scenarioId);
    return records.map((record) => ({
      attempt: record.attempt,
      result: scenarioResultFromRecords(
        record,
        metrics.filter((metric) => metric.attempt === record.attempt),
      ),
    }));
  }

  finishedScenarioIds(runId: string): string[] {
    return this.statements.finishedScenarioIds.all(runId, reportedAttempt).map((row) => row.scenario_id);
  }

  metricHistory(scenarioId: string, metric: string, limit = 20): MetricHistoryEntry[] {
    return this.statements.metricHistory.all(scenarioId, metric, reportedAttempt, limit).map((row) => ({
      ...row,
      passed: row.passed === 1,
      error: row.error === 1,
    }));
  }

  agentHistory(options: AgentHistoryOptions = {}): AgentHistory {
    return this.readAgentHistory(options);
  }

  latestScenarioStatuses(agent: string, runIds: readonly string[]): Map<string, Status> {
    return this.readLatestScenarioStatuses(agent, runIds);
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
    if (this.database.memory) return 0;
    return [this.path, `${this.path}-wal`].reduce((sum, file) => {
      try {
        return sum + statSync(file).size;
      } catch {
        return sum;
      }
    }, 0);
  }

  databasePages(): { total: number; free: number } {
    const total: unknown = this.database.pragma('page_count', { simple: true });
    const free: unknown = this.database.pragma('freelist_count', { simple: true });
    return { total: typeof total === 'number' ? total : 0, free: typeof free === 'number' ? free : 0 };
  }

  compact(): void {
    this.database.exec('VACUUM');
    // VACUUM under WAL writes the new file through the log; TRUNCATE folds it in and empties it,
    // so the bytes freed show on disk now, not at some later checkpoint.
    this.database.pragma('wal_checkpoint(TRUNCATE)');
  }

  checkpoint(): void {
    this.database.pragma('wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    this.database.close();
  }
}

type MetricHistoryRecord = Omit<MetricHistoryEntry, 'passed' | 'error'> & { passed: number; error: number | null };

/** Every statement the store runs, compiled once when it opens. */
function prepareStatements(database: Database.Database) {
  return {
    insertRun: database.prepare<[Record<string, string | null>]>(`
      INSERT INTO runs (id, suite, mode, started_at, git_sha, config_fingerprint, parley_version, options_json, out_dir)
      VALUES (@id, @suite, @mode, @started_at, @git_sha, @config_fingerprint, @parley_version, @options_json, @out_dir)`),
    finishRun: database.prepare<[Record<string, string | number | null>]>(`
      UPDATE runs SET status = @status, exit_code = @exit_code, finished_at = @finished_at, duration_ms = @duration_ms,
        input_tokens = @input_tokens, output_tokens = @output_tokens, cost_usd = @cost_usd, calls = @calls,
        counts_json = @counts_json, git_sha = COALESCE(@git_sha, git_sha)
      WHERE id = @id`),
    listRuns: database.prepare<[{ limit: number; offset: number }], RunRecord>(`
      SELECT ${runColumns} FROM runs AS r
      ORDER BY r.started_at DESC, r.rowid DESC LIMIT @limit OFFSET @offset`),
    listRunsOfSuite: database.prepare<[{ limit: number; offset: number; suite: string }], RunRecord>(`
      SELECT ${runColumns} FROM runs AS r WHERE r.suite = @suite
      ORDER BY r.started_at DESC, r.rowid DESC LIMIT @limit OFFSET @offset`),
    getRun: database.prepare<[string], RunRecord>(`SELECT ${runColumns} FROM runs AS r WHERE r.id = ?`),
    idsFrom: database.prepare<[string, number], { id: string }>(`SELECT id FROM runs WHERE id >= ? ORDER BY id LIMIT ?`),
    deleteMetricScores: database.prepare<[string, string, number]>(
      `DELETE FROM metric_scores WHERE run_id = ? AND scenario_id = ? AND attempt = ?`,
    ),
    deleteScenarioResult: database.prepare<[string, string, number]>(
      `DELETE FROM scenario_results WHERE run_id = ? AND scenario_id = ? AND attempt = ?`,
    ),
    insertScenarioResult: database.prepare<[ScenarioResultRecord]>(`
      INSERT INTO scenario_results (run_id, scenario_id, attempt, title, agent, gate, tags_json, language, metadata_only,
        status, reason, input_tokens, output_tokens, cost_usd, calls, error_json, session_json, transcript_json)
      VALUES (@run_id, @scenario_id, @attempt, @title, @agent, @gate, @tags_json, @language, @metadata_only,
        @status, @reason, @input_tokens, @output_tokens, @cost_usd, @calls, @error_json, @session_json, @transcript_json)`),
    insertMetricScore: database.prepare<[MetricScoreRecord]>(`
      INSERT INTO metric_scores (run_id, scenario_id, attempt, position, metric, version, score, threshold, passed,
        error, reason, details_json)
      VALUES (@run_id, @scenario_id, @attempt, @position, @metric, @version, @score, @threshold, @passed,
        @error, @reason, @details_json)`),
    resultsOfRun: database.prepare<[{ run_id: string; attempt: number; omit: number }], ScenarioResultRecord>(`
      SELECT run_id, scenario_id, attempt, title, agent, gate, tags_json, language, metadata_only, status, reason,
        input_tokens, output_tokens, cost_usd, calls, error_json, session_json,
        CASE WHEN @omit = 1 AND metadata_only = 1 THEN NULL ELSE transcript_json END AS transcript_json
      FROM scenario_results WHERE run_id = @run_id AND attempt = @attempt ORDER BY scenario_id`),
    // Walks the run's results in scenario order and looks up each one's scores by the metric index.
    metricScoresOfRun: database.prepare<[string, number], MetricScoreRecord>(`
      SELECT m.* FROM scenario_results AS s
      JOIN metric_scores AS m ON m.scenario_id = s.scenario_id AND m.run_id = s.run_id AND m.attempt = s.attempt
      WHERE s.run_id = ? AND s.attempt = ? ORDER BY s.scenario_id, m.position`),
    attemptsOfScenario: database.prepare<[string, string], ScenarioResultRecord>(`
      SELECT * FROM scenario_results WHERE run_id = ? AND scenario_id = ? AND attempt > 0 ORDER BY attempt`),
    metricScoresOfAttempts: database.prepare<[string, string], MetricScoreRecord>(`
      SELECT * FROM metric_scores WHERE run_id = ? AND scenario_id = ? AND attempt > 0 ORDER BY attempt, position`),
    finishedScenarioIds: database.prepare<[string, number], { scenario_id: string }>(`
      SELECT scenario_id FROM scenario_results WHERE run_id = ? AND attempt = ? ORDER BY scenario_id`),
    metricHistory: database.prepare<[string, string, number, number], MetricHistoryRecord>(`
      SELECT m.run_id, r.suite, r.started_at, m.version, m.score, m.threshold, m.passed, m.error, m.reason
      FROM metric_scores AS m JOIN runs AS r ON r.id = m.run_id
      WHERE m.scenario_id = ? AND m.metric = ? AND m.attempt = ?
      ORDER BY r.started_at DESC, r.rowid DESC, m.position LIMIT ?`),
  };
}

function groupByScenario(records: MetricScoreRecord[]): Map<string, MetricScoreRecord[]> {
  const groups = new Map<string, MetricScoreRecord[]>();
  for (const record of records) {
    const group = groups.get(record.scenario_id);
    if (group === undefined) groups.set(record.scenario_id, [record]);
    else group.push(record);
  }
  return groups;
}

function isForeignKeyFailure(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
