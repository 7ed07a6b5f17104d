import { isAbsolute, relative, sep } from 'node:path';
import type { ConfigIssue } from '@parley/core';
import { counted } from '../output/counted.js';
import { failsGate } from '@parley/gate';
import type { ReportResult, RunReport } from '@parley/reports';
import { annotation, group, type AnnotationLevel } from './github-workflow-commands.js';

/** Where a failing expectation is written (absolute or run-relative file, 1-based line and column). */
interface ExpectationPlace {
  file: string;
  line: number;
  column: number;
}

/** Finds the expectation behind `result.metrics[metricIndex]`; undefined when the scenario's files are unknown. */
export type LocateExpectation = (result: ReportResult, metricIndex: number | undefined) => ExpectationPlace | undefined;

/**
 * The `github` reporter: workflow commands that GitHub Actions turns into annotations on the PR's
 * files. A scenario that fails the gate gives `::error` at the line of each failing expectation
 * (or of the scenario, for an error); an advisory failure, a warning or a flaky result gives
 * `::warning`. The per-scenario list is a collapsed group, so the log stays short.
 * Paths are relative to `GITHUB_WORKSPACE` (the checkout) when given, else to the run's folder.
 */
export function renderGithubAnnotations(report: RunReport, locate: LocateExpectation, paths: { cwd: string; workspace?: string }): string {
  const lines: string[] = [];
  const counts = Object.entries(report.counts)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  lines.push(
    ...group(
      `parley ${report.suite}: ${report.status.toUpperCase()} · ${counted(report.results.length, 'scenario')} (${counts}) · exit ${report.exit_code}`,
      report.results.map((result) => `${result.status.padEnd(7)} ${result.gate === 'advisory' ? 'advisory' : 'blocking'} ${result.scenario_id}: ${oneLine(result.reason)}`),
    ),
  );
  for (const result of report.results) {
    const level = levelOf(result, report.strict);
    if (level === undefined) continue;
    const title = `parley: ${result.scenario_id} ${result.status}${result.gate === 'advisory' ? ' (advisory)' : ''}`;
    const failing = result.metrics.flatMap((metric, index) => (metric.passed ? [] : [index]));
    if (result.error !== undefined || failing.length === 0) {
      const message = result.error?.message ?? result.reason;
      lines.push(annotation(level, message, { ...placeOf(locate(result, undefined), paths), title }));
    }
    for (const index of failing) {
      const metric = result.metrics[index]!;
      lines.push(annotation(level, `${metric.metric}@${metric.version}: ${metric.reason}`, { ...placeOf(locate(result, index), paths), title }));
    }
  }
  for (const warning of report.warnings ?? []) {
    const failsRun = warning.fails_under_strict && report.strict;
    lines.push(annotation(failsRun ? 'error' : 'warning', warning.message, { title: 'parley' }));
  }
  return `${lines.join('\n')}\n`;
}

/** Configuration errors (exit 2) as annotations at their file, line and column. */
export function renderIssueAnnotations(issues: readonly ConfigIssue[], paths: { cwd: string; workspace?: string }): string {
  const lines = issues.map((issue) =>
    annotation(issue.severity === 'warning' ? 'warning' : 'error', issue.message, {
      ...(issue.file !== undefined && issue.file !== '' ? { file: workspacePath(issue.file, paths) } : {}),
      ...(issue.line !== undefined ? { line: issue.line } : {}),
      ...(issue.column !== undefined ? { col: issue.column } : {}),
      title: 'parley: configuration error',
    }),
  );
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

function levelOf(result: ReportResult, strict: boolean): AnnotationLevel | undefined {
  if (failsGate(result, { strict })) return 'error';
  if (result.status === 'pass' || result.status === 'skipped') return undefined;
  return 'warning';
}

function placeOf(place: ExpectationPlace | undefined, paths: { cwd: string; workspace?: string }): { file?: string; line?: number; col?: number } {
  if (place === undefined) return {};
  return { file: workspacePath(place.file, paths), line: place.line, col: place.column };
}

/** A path as GitHub wants it: relative to the checkout (`GITHUB_WORKSPACE`), `/` separators. */
function workspacePath(file: string, paths: { cwd: string; workspace?: string }): string {
  const absolute = isAbsolute(file) ? file : `${paths.cwd}${sep}${file}`;
  const base = paths.workspace !== undefined && paths.workspace !== '' && !relative(paths.workspace, absolute).startsWith('..') ? paths.workspace : paths.cwd;
  return relative(base, absolute).split(sep).join('/');
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}
