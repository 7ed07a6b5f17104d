import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, DiskFullError, isDiskFull, writeFileAtomically } from '@parley/core';
import { reportJsonChunks } from './build-report.js';
import { junitChunks } from './junit.js';
import type { RunReport } from './report-schema.js';
import { renderSummaryMarkdown } from './summary-markdown.js';

export interface WriteReportsOptions {
  /** A file to append summary.md to; the CLI passes `$GITHUB_STEP_SUMMARY`. Empty means none. */
  githubStepSummary?: string;
}

export interface WrittenReports {
  reportJson: string;
  junitXml: string;
  summaryMarkdown: string;
  /** The step-summary file appended to, when there was one. */
  githubStepSummary?: string;
}

/**
 * Writes report.json, junit.xml and summary.md into `outDir` (created if missing) and appends
 * the summary to the GitHub step summary when given. Each file is written to a temporary name
 * and renamed, so a crash or a full disk never leaves a half-written report that a later
 * `merge-reports` or CI upload would take for a real one. The step summary is appended, never
 * overwritten: other steps of the same job write to it too.
 *
 * A directory or file that cannot be written is a `ConfigError` naming the path (the user
 * chose it with `--out`), which the CLI turns into exit 2.
 */
export function writeReports(outDir: string, report: RunReport, options: WriteReportsOptions = {}): WrittenReports {
  const summary = renderSummaryMarkdown(report);
  const written: WrittenReports = {
    reportJson: join(outDir, 'report.json'),
    junitXml: join(outDir, 'junit.xml'),
    summaryMarkdown: join(outDir, 'summary.md'),
  };

  attempt(outDir, () => mkdirSync(outDir, { recursive: true }));
  writeAtomically(written.reportJson, reportJsonChunks(report));
  writeAtomically(written.junitXml, junitChunks(report));
  writeAtomically(written.summaryMarkdown, summary);

  const stepSummary = options.githubStepSummary;
  if (stepSummary !== undefined && stepSummary !== '') {
    attempt(stepSummary, () => appendFileSync(stepSummary, `${separatorBefore(stepSummary)}${summary}`, 'utf8'));
    written.githubStepSummary = stepSummary;
  }
  return written;
}

function writeAtomically(path: string, text: string | Iterable<string>): void {
  attempt(path, () => writeFileAtomically(path, text));
}

/** A blank line between what is already in the step summary and this run's summary. */
function separatorBefore(path: string): string {
  if (!existsSync(path)) return ''; // appendFileSync creates it.
  const existing = readFileSync(path, 'utf8');
  if (existing === '') return '';
  return existing.endsWith('\n') ? '\n' : '\n\n';
}

function attempt(path: string, action: () => void): void {
  try {
    action();
  } catch (error) {
    if (error instanceof DiskFullError) throw error;
    if (isDiskFull(error)) throw new DiskFullError(path);
    const cause = error instanceof Error ? error.message : String(error);
    throw new ConfigError({ file: path, message: `cannot write report: ${cause}` });
  }
}
