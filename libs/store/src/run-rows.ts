import { RUN_STATUSES, type CostSummary, type RunMode, type RunStatus, type Status } from '@parley/core';

/** What is known about a run when it starts. */
export interface NewRun {
  id: string;
  suite: string;
  mode: RunMode;
  /** ISO 8601 (UTC); runs are listed by it, newest first. */
  started_at: string;
  git_sha?: string | null;
  config_fingerprint?: string | null;
  parley_version: string;
  /** The flags the run was started with. */
  options: Record<string, unknown>;
  out_dir: string;
}

/** What is known about a run when it ends. */
export interface RunFinish {
  /** `interrupted` when Ctrl-C or SIGTERM stopped the run (exit 130 / 143); its finished results are kept. */
  status: RunStatus;
  exit_code: number;
  finished_at: string;
  duration_ms: number;
  cost: CostSummary;
  counts: Record<Status, number>;
  /** The commit, when it became known only by the end of the run (git is asked in parallel). */
  git_sha?: string | null;
}

/** A stored run. The RunFinish fields are absent while it runs and after it was interrupted. */
export interface RunRow extends NewRun, Partial<RunFinish> {
  /** Scenarios with a reported result (attempt 0). */
  scenario_count: number;
  finished: boolean;
}

/** One row of `runs` as SQLite returns it, plus the counted scenarios. */
export interface RunRecord {
  id: string;
  suite: string;
  mode: string;
  started_at: string;
  git_sha: string | null;
  config_fingerprint: string | null;
  parley_version: string;
  options_json: string;
  out_dir: string;
  status: string | null;
  exit_code: number | null;
  finished_at: string | null;
  duration_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  calls: number | null;
  counts_json: string | null;
  scenario_count: number;
}

/** Named parameters of the `INSERT INTO runs` statement. */
export function newRunParameters(run: NewRun): Record<string, string | null> {
  return {
    id: run.id,
    suite: run.suite,
    mode: run.mode,
    started_at: run.started_at,
    git_sha: run.git_sha ?? null,
    config_fingerprint: run.config_fingerprint ?? null,
    parley_version: run.parley_version,
    options_json: JSON.stringify(run.options),
    out_dir: run.out_dir,
  };
}

/** Named parameters of the `UPDATE runs` statement that records the end of a run. */
export function runFinishParameters(runId: string, finish: RunFinish): Record<string, string | number | null> {
  return {
    id: runId,
    status: finish.status,
    exit_code: finish.exit_code,
    finished_at: finish.finished_at,
    duration_ms: finish.duration_ms,
    input_tokens: finish.cost.input_tokens,
    output_tokens: finish.cost.output_tokens,
    cost_usd: finish.cost.usd,
    calls: finish.cost.calls,
    counts_json: JSON.stringify(finish.counts),
    git_sha: finish.git_sha ?? null,
  };
}

/** The columns `runRowFromRecord` reads, for `SELECT … FROM runs AS r`. */
export const runColumns = `
  r.id, r.suite, r.mode, r.started_at, r.git_sha, r.config_fingerprint, r.parley_version, r.options_json,
  r.out_dir, r.status, r.exit_code, r.finished_at, r.duration_ms, r.input_tokens, r.output_tokens,
  r.cost_usd, r.calls, r.counts_json,
  (SELECT count(*) FROM scenario_results AS s WHERE s.run_id = r.id AND s.attempt = 0) AS scenario_count`;

/** The store only reads back what it wrote itself, so the stored strings are trusted to be valid. */
export function runRowFromRecord(record: RunRecord): RunRow {
  const options: Record<string, unknown> = JSON.parse(record.options_json);
  const row: RunRow = {
    id: record.id,
    suite: record.suite,
    mode: toRunMode(record.mode),
    started_at: record.started_at,
    git_sha: record.git_sha,
    config_fingerprint: record.config_fingerprint,
    parley_version: record.parley_version,
    options,
    out_dir: record.out_dir,
    scenario_count: record.scenario_count,
    finished: record.status !== null,
  };
  if (record.status === null) return row;
  const counts: Record<Status, number> = JSON.parse(record.counts_json ?? '{}');
  return {
    ...row,
    status: toRunStatus(record.status),
    exit_code: record.exit_code ?? 0,
    finished_at: record.finished_at ?? '',
    duration_ms: record.duration_ms ?? 0,
    cost: {
      input_tokens: record.input_tokens ?? 0,
      output_tokens: record.output_tokens ?? 0,
      usd: record.cost_usd,
      calls: record.calls ?? 0,
    },
    counts,
  };
}

const statuses: readonly Status[] = ['pass', 'fail', 'warn', 'flaky', 'error', 'skipped'];
const runModes: readonly RunMode[] = ['replay', 'live', 'record'];

/** Narrows a stored status; a value this Parley does not know is a corrupt row, not a guess. */
export function toStatus(value: string): Status {
  const status = statuses.find((known) => known === value);
  if (status === undefined) throw new Error(`stored status "${value}" is not one of ${statuses.join(', ')}`);
  return status;
}

/** Narrows a stored run status: a scenario status, or `interrupted`. */
function toRunStatus(value: string): RunStatus {
  const status = RUN_STATUSES.find((known) => known === value);
  if (status === undefined) throw new Error(`stored run status "${value}" is not one of ${RUN_STATUSES.join(', ')}`);
  return status;
}

function toRunMode(value: string): RunMode {
  const mode = runModes.find((known) => known === value);
  if (mode === undefined) throw new Error(`stored run mode "${value}" is not one of ${runModes.join(', ')}`);
  return mode;
}
