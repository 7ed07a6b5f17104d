import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as z from 'zod';
import type { Measured } from './agreement-summary.js';
import { CALIBRATION_REPORT_SCHEMA_VERSION } from './calibration-report.js';
import type { ComparisonId } from './comparison-pairs.js';

/** A report file of `reports/` that was read and understood. */
export interface StoredCalibrationReport {
  file: string;
  /** The file's `<date>` stem (YYYY-MM-DD), else the day the report was generated. */
  date: string;
  report: StoredReport;
}

/** A file of `reports/` that is not a usable report, and why. */
export interface ReportFileProblem {
  file: string;
  message: string;
}

export interface ReportHistory {
  /** Oldest first (by date, then by generation time). */
  reports: StoredCalibrationReport[];
  problems: ReportFileProblem[];
}

const measured = z.number().nullable();

const ModelSchema = z.looseObject({ provider: z.string(), model: z.string() }).nullable();

const IntervalSchema = z.looseObject({ low: measured, high: measured });

const AgreementRowSchema = z.looseObject({
  axis: z.string(),
  n: z.number(),
  items: z.number(),
  kappa: z.looseObject({ unweighted: measured, linear: measured, quadratic: measured }),
  /** The 95 % intervals of each kappa (the dashboard shows the quadratic one). */
  bootstrap_interval: z.looseObject({ quadratic: IntervalSchema }).optional(),
  analytic_interval: z.looseObject({ quadratic: IntervalSchema }).optional(),
  exact_agreement: measured,
  bias: measured,
  confusion_matrix: z.array(z.array(z.number())),
  band: z.string().nullable(),
});

/**
 * The parts of `reports/<date>.json` that the history and the kappa dashboard read, checked so
 * that a hand-edited, truncated or other-version file is a problem line instead of a crash. The
 * report's other fields are kept as they are.
 */
export const StoredReportSchema = z.looseObject({
  schema_version: z.literal(CALIBRATION_REPORT_SCHEMA_VERSION),
  generated_at: z.string().min(10),
  set: z.looseObject({ path: z.string(), axes: z.array(z.string()), items: z.number(), rated_items: z.number() }),
  session: z.looseObject({
    id: z.string(),
    started_at: z.string(),
    finished_at: z.string().nullable().optional(),
    mode: z.string(),
    rubric_version: z.string().optional(),
    judge: ModelSchema,
    cross_check: ModelSchema,
    // Absent from reports written before they were recorded: not recorded, not an error.
    selected_by: z.enum(['latest_finished', 'session_flag', 'replayed_recording']).optional(),
    unfinished_left_out: z.array(z.string()).optional(),
  }),
  gate: z.looseObject({
    min_kappa: z.number(),
    max_bias: z.number(),
    passed: z.boolean(),
    axes: z.array(z.looseObject({ axis: z.string(), kappa_quadratic: measured, bias: measured, passed: z.boolean(), problems: z.array(z.string()) })),
  }),
  comparisons: z.array(z.looseObject({ id: z.string(), label: z.string(), axes: z.array(AgreementRowSchema) })),
  warnings: z.array(z.string()).default([]),
});

/** A calibration report as read back from its file (see `CalibrationReport` for what each field means). */
export type StoredReport = z.infer<typeof StoredReportSchema>;
export type StoredAgreementRow = z.infer<typeof AgreementRowSchema>;

const DATE_STEM = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Every `*.json` report in `reportsDir` (as `parley calibrate report` writes them), oldest first.
 * A file that cannot be read, is not JSON or is not a report of this schema version is listed in
 * `problems` and left out; a missing folder is an empty history.
 *
 * @example
 * const { reports, problems } = readReportHistory('calibration/reports');
 * const latest = reports.at(-1)?.report;
 */
export function readReportHistory(reportsDir: string): ReportHistory {
  let names: string[];
  try {
    names = readdirSync(reportsDir).filter((name) => name.endsWith('.json'));
  } catch (error) {
    if (isMissing(error)) return { reports: [], problems: [] };
    return { reports: [], problems: [{ file: reportsDir, message: messageOf(error) }] };
  }
  const reports: StoredCalibrationReport[] = [];
  const problems: ReportFileProblem[] = [];
  for (const name of names.sort()) {
    const file = join(reportsDir, name);
    const read = readStoredReport(file);
    if ('message' in read) problems.push({ file, message: read.message });
    else reports.push(read);
  }
  reports.sort((left, right) => compare(left.date, right.date) || compare(left.report.generated_at, right.report.generated_at));
  return { reports, problems };
}

/**
 * One `reports/<date>.json` file, checked as {@link readReportHistory} checks each: the report, or
 * why the file is not one (cannot be read, not JSON, not a calibration report of this schema).
 */
export function readStoredReport(file: string): StoredCalibrationReport | { message: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { message: `cannot read: ${messageOf(error)}` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { message: `not JSON: ${messageOf(error)}` };
  }
  const parsed = StoredReportSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { message: `not a calibration report (schema_version ${CALIBRATION_REPORT_SCHEMA_VERSION}): ${where}${issue?.message ?? 'invalid'}` };
  }
  const report = parsed.data;
  const stem = basename(file, '.json');
  return { file, date: DATE_STEM.test(stem) ? stem : report.generated_at.slice(0, 10), report };
}

/** One report's gate numbers, a point of the trend. */
export interface ReportTrendPoint {
  date: string;
  session_id: string;
  mode: string;
  passed: boolean;
  /** The gate's verdict per axis. */
  axisPassed: Record<string, boolean>;
  /** Gate (judge-vs-human quadratic) kappa per axis. */
  kappa: Record<string, Measured>;
  bias: Record<string, Measured>;
}

/** The gate kappa and bias of each report, oldest first: how agreement moved from session to session. */
export function reportTrend(history: readonly StoredCalibrationReport[]): ReportTrendPoint[] {
  return history.map(({ date, report }) => ({
    date,
    session_id: report.session.id,
    mode: report.session.mode,
    passed: report.gate.passed,
    axisPassed: Object.fromEntries(report.gate.axes.map((axis) => [axis.axis, axis.passed])),
    kappa: Object.fromEntries(report.gate.axes.map((axis) => [axis.axis, axis.kappa_quadratic])),
    bias: Object.fromEntries(report.gate.axes.map((axis) => [axis.axis, axis.bias])),
  }));
}

/** A comparison's row for one axis (or `overall`); undefined when the report does not have it. */
export function reportAgreement(report: StoredReport, comparison: ComparisonId, axis: string): StoredAgreementRow | undefined {
  return report.comparisons.find((entry) => entry.id === comparison)?.axes.find((entry) => entry.axis === axis);
}

function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
