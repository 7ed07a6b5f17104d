import type { MetricResult } from '@parley/core';
import { scenarioOfCase } from '@parley/core';
import { baselineMetricRows, metricRowsInTriageOrder, triageOrder } from '@parley/gate';
import { failureMarks, messageJudgements, type ReportResult, type RunReport } from '@parley/reports';
import { jsonChunker } from './embedded-data.js';
import type { CaseDetail, CaseSummary, CaseView, RunHeader, RunPageData } from './page-data.js';

/** A run page's data as JSON text: the header and case list, and the detail chunks. */
export interface RunPageJson {
  data: string;
  chunks: string[];
}

/**
 * The data of a run's page, from its report.json alone: the run without its results, the cases
 * in the TUI's triage order (`triageOrder`) with what the list shows, and each case's detail
 * (its result exactly as in the report, so masking and `metadata_only` withholding are the
 * report's) with the judgements, failure marks and expectation rows the TUI draws from the same
 * library functions.
 */
export function runPageJson(report: RunReport): RunPageJson {
  return runPageParts(report, (chunk) => chunk);
}

/**
 * {@link runPageJson} with each detail chunk handed to `sink` as soon as it is complete, and each
 * case's detail dropped once it is in its chunk: `renderRunHtml` compresses there, so a run of
 * 10,000 conversations never holds all its details as objects and as JSON text at once (that
 * doubled a replay's peak memory).
 */
export function runPageParts<T>(report: RunReport, sink: (chunkJson: string) => T): { data: string; chunks: T[] } {
  const { results, ...header } = report;
  const chunker = jsonChunker(sink);
  const cases = triageOrder(results).map((result) => {
    const detail = caseDetail(result);
    return caseSummary(detail, chunker.add(JSON.stringify(detail)));
  });
  const chunks = chunker.finish();
  const data: RunPageData = { kind: 'run', header: header satisfies RunHeader, cases, chunks: chunks.length };
  return { data: JSON.stringify(data), chunks };
}

function caseDetail(result: ReportResult): CaseDetail {
  return {
    result,
    view: caseView(result.metrics),
    attempt_views: (result.attempts ?? []).map((attempt) => caseView(attempt.metrics)),
  };
}

function caseView(metrics: readonly MetricResult[]): CaseView {
  const marks = failureMarks(metrics);
  return {
    rows: metricRowsInTriageOrder(baselineMetricRows(metrics)),
    marks: [...marks.byMessage],
    unlocated: marks.unlocated,
    judgements: [...messageJudgements(metrics)],
  };
}

function caseSummary({ result, view }: CaseDetail, place: { chunk: number; slot: number }): CaseSummary {
  return {
    id: result.scenario_id,
    scenario: scenarioOfCase(result.scenario_id),
    ...(result.title !== undefined ? { title: result.title } : {}),
    status: result.status,
    gate: result.gate,
    agent: result.agent,
    tags: result.tags,
    ...(result.language !== undefined ? { language: result.language } : {}),
    ...(result.vars !== undefined ? { vars: result.vars } : {}),
    reason: result.reason,
    metadata_only: result.metadata_only,
    cost_usd: result.cost.usd,
    messages: result.transcript?.turns.length ?? 0,
    attempts: result.attempts?.length ?? 1,
    flaky_mark: result.flaky_mark !== undefined,
    marked_messages: view.marks.length,
    ...(result.error !== undefined ? { error_kind: result.error.kind } : {}),
    chunk: place.chunk,
    slot: place.slot,
  };
}
