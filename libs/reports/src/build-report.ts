import { addCost, emptyCost, type CostSummary, type InterruptSignal, type MetricResult, type RunMode, type ScenarioResult } from '@parley/core';
import { countStatuses, exitCodeFor, finishedRunStatus, interruptedExitCode, type RunWarning } from '@parley/gate';
import { baselineReport, type BaselineSource } from './baseline-report.js';
import {
  REPORT_SCHEMA_VERSION,
  type AgentComparisonReport,
  type BudgetReport,
  type JudgeReport,
  type MergedShard,
  type ReportAttempt,
  type ReportFlakyMark,
  type ReportResult,
  type RunReport,
  type RunSelection,
} from './report-schema.js';
import { floorRedactor, type Redactor } from '@parley/redaction';
import { WITHHELD, withheldScenarioReason, withholdMetricContent } from './withhold-content.js';
import { redactResultContent } from './redact-results.js';

/** Facts about the run that do not come from its scenario results. */
export interface RunInfo {
  run_id: string;
  suite: string;
  parley_version: string;
  mode: RunMode;
  strict: boolean;
  /** ISO 8601, UTC (from the injected clock, so tests are deterministic). */
  started_at: string;
  finished_at: string;
  duration_ms: number;
  git_sha?: string | null;
  config_fingerprint?: string | null;
  budget?: BudgetReport;
  /**
   * Ctrl-C (`true` or `'SIGINT'`) or SIGTERM stopped the run: the report keeps every finished
   * result, its status is `interrupted` and its exit code 130 (143 for SIGTERM).
   */
  interrupted?: boolean | InterruptSignal;
  /** How the person runs Parley (`parley` or `npx parley`): an interrupted run's resume command starts with it; `parley` when left out. */
  parley_command?: string;
  /** Scenarios the run was to run; an interrupted run's report says how many of them ran. Default: the results given. */
  planned?: number;
  /**
   * What the calls of scenarios still running when the run stopped cost: they have no result, but
   * the providers answered (and billed) them, so they count in the run's cost.
   */
  unfinished_cost?: CostSummary;
  /** `--repeat N`; recorded in the report when N > 1. */
  repeat?: number;
  selection?: RunSelection;
  /** The baseline the run was gated against; the report adds what the comparison found. */
  baseline?: BaselineSource;
  /** Problems of the run as a whole; under `--strict` some of them fail it. */
  warnings?: readonly RunWarning[];
  merged_from?: readonly MergedShard[];
  /** What the LLM judges did (docs/file-formats.md, "Judge metrics"): verdicts, cache, cross-check agreement. */
  judge?: JudgeReport;
  /** A comparison run's side-by-side view of its agents (computed by @parley/compare). */
  comparison?: AgentComparisonReport;
  /** Scenarios of the suite marked flaky in triage (the store's marks); shown beside those that ran. */
  flaky_marks?: readonly FlakyMarkInput[];
}

/** A flaky mark as the store keeps it (structurally `FlakyMark` of @parley/store). */
export interface FlakyMarkInput {
  scenario_id: string;
  run_id: string;
  marked_at: string;
  note: string;
}

export interface BuildReportOptions {
  /** Masks conversation content in reasons, details, errors and transcripts (docs/privacy.md); the floor when left out. */
  redactor?: Redactor;
  /**
   * The results were already passed through {@link redactResultContent} with `redactor` (the run
   * redacts each result once as it finishes and shares that copy with its event log): they are
   * not redacted again, and their transcripts, metric details and calls go into the report as
   * they are (not cloned), so the report holds that content once.
   * Everything else (withholding `metadata_only` content) still applies.
   */
  alreadyRedacted?: boolean;
  /** Scenario id → its file, relative to where the run ran (`results[].file`, JUnit's `file`, CI annotations). */
  files?: ReadonlyMap<string, string>;
}

/** A scenario's result as the report takes it: under `--repeat`, with its attempts in order. */
export type ReportInput = ScenarioResult & { attempts?: readonly ScenarioResult[] };

/**
 * Builds `report.json`'s content from a run's results. Status, exit code and counts come from
 * @parley/gate, so the report can never disagree with the process's exit code.
 *
 * Deterministic: results are sorted by scenario id (ordinal string order, never locale-dependent) and every
 * object is built with a fixed key order, so the same inputs give byte-identical JSON from
 * {@link renderReportJson}. Sessions (conversation id, tenant) are never included, because they
 * differ on every run and would make two replays of the same recordings compare unequal.
 * `metadata_only` scenarios lose their transcript and every piece of text that could quote it;
 * every other scenario's text goes through the redactor (the suite's, else the floor's).
 */
export function buildReport(run: RunInfo, results: readonly ReportInput[], options: BuildReportOptions = {}): RunReport {
  const redactor = options.redactor ?? floorRedactor();
  const redacted = options.alreadyRedacted === true ? results : results.map((result) => redactResultContent(result, redactor));
  const reported = redacted.map((result) => reportResult(result, options.alreadyRedacted !== true, options.files?.get(result.scenario_id)));
  return reportOfResults(run, reported, redactor);
}

/**
 * A result the run redacted (with {@link redactResultContent}) in the form report.json gives it,
 * made as it finishes: the run keeps this and not the result, so a run of 10,000 conversations
 * holds each once, in the report's form, until its reports are written. Its transcript, metric
 * details and calls are the result's own (not copies). `file`: the scenario's file, as in
 * {@link BuildReportOptions.files}.
 */
export function reportedResult(redacted: ReportInput, file?: string): ReportResult {
  return reportResult(redacted, false, file);
}

/**
 * {@link buildReport} of results already in the report's form ({@link reportedResult}): the same
 * report, status and exit code, the results sorted and flaky marks added here.
 * `redactor` masks the flaky marks' notes (the floor's when left out).
 */
export function buildReportOfReported(run: RunInfo, reported: readonly ReportResult[], redactor: Redactor = floorRedactor()): RunReport {
  return reportOfResults(run, [...reported], redactor);
}

function reportOfResults(run: RunInfo, reportedResults: ReportResult[], redactor: Redactor): RunReport {
  const sorted = reportedResults.sort((left, right) => compareOrdinal(left.scenario_id, right.scenario_id));
  const finishedCost = sorted.reduce((total, result) => addCost(total, result.cost), emptyCost());
  const unfinished = run.unfinished_cost !== undefined && run.unfinished_cost.calls > 0 ? run.unfinished_cost : undefined;
  const cost = unfinished ? addCost(finishedCost, unfinished) : finishedCost;
  const warnings = [...(run.warnings ?? [])];
  const marks = new Map((run.flaky_marks ?? []).map((mark) => [mark.scenario_id, mark]));
  const interrupted: InterruptSignal | undefined = run.interrupted === true ? 'SIGINT' : run.interrupted === false ? undefined : run.interrupted;
  const reported = sorted.map((result) => withFlakyMark(result, marks.get(result.scenario_id), redactor));
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    run_id: run.run_id,
    suite: run.suite,
    parley_version: run.parley_version,
    mode: run.mode,
    status: finishedRunStatus(sorted, warnings, interrupted),
    exit_code: interrupted !== undefined ? interruptedExitCode(interrupted) : exitCodeFor(sorted, { strict: run.strict, warnings }),
    strict: run.strict,
    ...(interrupted !== undefined
      ? {
          interruption: {
            signal: interrupted,
            ran: sorted.length,
            planned: Math.max(run.planned ?? sorted.length, sorted.length),
            resume: resumeCommand(run.run_id, run.parley_command),
            ...(unfinished ? { unfinished_cost: { ...unfinished } } : {}),
          },
        }
      : {}),
    started_at: run.started_at,
    finished_at: run.finished_at,
    duration_ms: run.duration_ms,
    git_sha: run.git_sha ?? null,
    config_fingerprint: run.config_fingerprint ?? null,
    cost_usd: cost.usd,
    cost,
    ...(run.budget !== undefined ? { budget: { ...run.budget, downgrades: [...run.budget.downgrades] } } : {}),
    ...(run.repeat !== undefined && run.repeat > 1 ? { repeat: run.repeat } : {}),
    ...(run.selection !== undefined ? { selection: structuredClone(run.selection) } : {}),
    ...(run.baseline !== undefined ? { baseline: baselineReport(run.baseline, reported) } : {}),
    ...(warnings.length > 0 ? { warnings: warnings.map((warning) => ({ ...warning })) } : {}),
    ...(run.merged_from !== undefined ? { merged_from: run.merged_from.map((shard) => ({ ...shard })) } : {}),
    ...(run.judge !== undefined ? { judge: structuredClone(run.judge) } : {}),
    ...(run.comparison !== undefined ? { comparison: structuredClone(run.comparison) } : {}),
    counts: countStatuses(sorted),
    results: reported,
  };
}

/** The command that finishes an interrupted run under its own id, with its own flags. */
function resumeCommand(runId: string, parleyCommand = 'parley'): string {
  return `${parleyCommand} run --resume ${runId}`;
}

/** report.json's text: 2-space indent, trailing newline, keys in the order the report was built. */
export function renderReportJson(report: RunReport): string {
  return [...reportJsonChunks(report)].join('');
}

const RESULTS_PLACEHOLDER = '<parley:results>';
const RESULTS_MARK = `"results": "${RESULTS_PLACEHOLDER}"`;

/**
 * report.json in pieces — the run's fields, then one piece per result — with exactly the text of
 * `JSON.stringify(report, null, 2)`. Writing piece by piece never builds one string of the whole
 * report, which for 10,000 transcripts is tens of megabytes held twice.
 */
export function* reportJsonChunks(report: RunReport): Generator<string> {
  const outline = JSON.stringify({ ...report, results: RESULTS_PLACEHOLDER }, null, 2);
  const valueStart = outline.indexOf(RESULTS_MARK) + RESULTS_MARK.length - JSON.stringify(RESULTS_PLACEHOLDER).length;
  const valueEnd = outline.indexOf(RESULTS_MARK) + RESULTS_MARK.length;
  yield outline.slice(0, valueStart);
  if (report.results.length === 0) {
    yield '[]';
  } else {
    yield '[\n';
    for (const [index, result] of report.results.entries()) {
      yield `${index > 0 ? ',\n' : ''}${indentedResult(result)}`;
    }
    yield '\n  ]';
  }
  yield `${outline.slice(valueEnd)}\n`;
}

/**
 * A result as it stands inside report.json's `results` (4 spaces in): JSON.stringify indents it so
 * itself when it writes it inside a two-level wrapper, which costs less than re-indenting its text.
 */
function indentedResult(result: ReportResult): string {
  const wrapped = JSON.stringify({ results: [result] }, null, 2);
  return wrapped.slice(WRAPPER_HEAD.length, wrapped.length - WRAPPER_TAIL.length);
}

const WRAPPER_HEAD = '{\n  "results": [\n';
const WRAPPER_TAIL = '\n  ]\n}';

/**
 * `copy`: the transcript, the metrics' details and the calls are cloned. Without it (results the
 * run redacted for the report) the report takes those parts as they are: a 10,000-scenario run
 * would otherwise hold every result's details twice while its reports are written.
 */
function reportResult(result: ReportInput, copy = true, file?: string): ReportResult {
  const withheld = result.metadata_only;
  const error = result.error === undefined ? undefined : reportError(result.error, withheld);
  const attempts = result.attempts?.map((attempt, index) => reportAttempt(attempt, index + 1, withheld));
  return {
    scenario_id: result.scenario_id,
    ...(result.title !== undefined ? { title: result.title } : {}),
    ...(file !== undefined ? { file } : {}),
    agent: result.agent,
    gate: result.gate,
    tags: [...result.tags],
    ...(result.language !== undefined ? { language: result.language } : {}),
    ...(result.vars !== undefined ? { vars: { ...result.vars } } : {}),
    status: result.status,
    reason: withheld ? withheldScenarioReason(result) : result.reason,
    metadata_only: result.metadata_only,
    metrics: result.metrics.map((metric) => (withheld ? withholdMetricContent(metric) : copyMetric(metric, copy))),
    cost: { ...result.cost },
    ...(result.calls !== undefined ? { calls: copy ? result.calls.map((call) => ({ ...call })) : result.calls } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(!withheld && result.transcript !== undefined ? { transcript: copy ? structuredClone(result.transcript) : result.transcript } : {}),
    ...(attempts !== undefined ? { attempts } : {}),
  };
}

/** The result with its triage flaky mark; the note is the person's text, so it is redacted, and withheld for metadata_only. */
function withFlakyMark(result: ReportResult, mark: FlakyMarkInput | undefined, redactor: Redactor): ReportResult {
  if (mark === undefined) return result;
  const note = result.metadata_only || mark.note.trim() === '' ? undefined : redactor.text(mark.note);
  const flakyMark: ReportFlakyMark = { marked_at: mark.marked_at, run_id: mark.run_id, ...(note !== undefined ? { note } : {}) };
  return { ...result, flaky_mark: flakyMark };
}

/** One attempt of a repeated scenario, withheld like the result it belongs to. */
function reportAttempt(attempt: ScenarioResult, number: number, withheld: boolean): ReportAttempt {
  const error = attempt.error === undefined ? undefined : reportError(attempt.error, withheld);
  return {
    attempt: number,
    status: attempt.status,
    reason: withheld ? withheldScenarioReason({ ...attempt, metadata_only: true }) : attempt.reason,
    metrics: attempt.metrics.map((metric) => (withheld ? withholdMetricContent(metric) : copyMetric(metric))),
    cost: { ...attempt.cost },
    ...(error !== undefined ? { error } : {}),
    ...(!withheld && attempt.transcript !== undefined ? { transcript: structuredClone(attempt.transcript) } : {}),
  };
}

function reportError(error: NonNullable<ScenarioResult['error']>, withheld: boolean): NonNullable<ReportResult['error']> {
  // A recording-miss diff or an agent's stderr quotes the conversation: only the kind is safe.
  if (withheld) return { kind: error.kind, message: WITHHELD };
  return { kind: error.kind, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) };
}

/** The metric with its fields in the report's order; `cloneDetails` false shares the details object. */
function copyMetric(metric: MetricResult, cloneDetails = true): MetricResult {
  return {
    metric: metric.metric,
    version: metric.version,
    score: metric.score,
    threshold: metric.threshold,
    passed: metric.passed,
    reason: metric.reason,
    ...(metric.details !== undefined ? { details: cloneDetails ? structuredClone(metric.details) : metric.details } : {}),
    ...(metric.error !== undefined ? { error: metric.error } : {}),
  };
}

function compareOrdinal(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
