import type { MetricResult } from '@parley/core';
import { scenarioOfCase } from '@parley/core';
import { baselineMetricRows, metricRowsInTriageOrder, triageOrder } from '@parley/gate';
import { failureMarks, messageJudgements, type ReportResult, type RunReport } from '@parley/reports';
import { commaSeparatedPieces, jsonArrayText, jsonChunker } from './embedded-data.js';
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
  const { data, chunks } = runPageParts(report, jsonArrayText);
  return { data: data.join(''), chunks };
}

/**
 * {@link runPageJson} with each detail chunk's items handed to `sink` as soon as it is complete,
 * and each case's detail dropped once it is in its chunk: `renderRunHtml` compresses there, so a
 * run of 10,000 conversations never holds all its details as objects and as JSON text at once
 * (that doubled a replay's peak memory). The page's data comes as pieces of its JSON text (each
 * case's list entry one of them), which `renderRunHtml` compresses without joining them.
 */
function runPageParts<T>(report: RunReport, sink: (items: readonly string[]) => T): { data: string[]; chunks: T[] } {
  const steps = runPageSteps(report, sink);
  const chunks: T[] = [];
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done === true) return { data: step.value, chunks };
    chunks.push(step.value);
  }
}

/**
 * {@link runPageParts} as it goes: yields what `sink` made of each detail chunk as soon as the
 * chunk is complete, and returns the page's data pieces at the end, so a writer can write each
 * chunk and let it go before the next (a page of 10,000 distinct conversations is some 20 MB of
 * compressed chunks).
 */
export function* runPageSteps<T>(report: RunReport, sink: (items: readonly string[]) => T): Generator<T, string[]> {
  const { results, ...header } = report;
  const ready: T[] = [];
  let count = 0;
  const chunker = jsonChunker((items) => {
    ready.push(sink(items));
    count += 1;
  });
  // Each case's list entry as JSON text at once: 10,000 entries held as objects until the end
  // were some 10 MB more than their text.
  const cases: string[] = [];
  for (const result of triageOrder(results)) {
    const detail = caseDetail(result);
    cases.push(JSON.stringify(caseSummary(detail, chunker.add(JSON.stringify(detail)))));
    yield* ready.splice(0);
  }
  chunker.finish();
  yield* ready.splice(0);
  return runPageDataPieces(header, cases, count);
}

/**
 * `JSON.stringify` of the page's {@link RunPageData} in pieces, its cases given as their JSON text
 * (in its key order: kind, header, cases, chunks).
 */
function runPageDataPieces(header: RunHeader, cases: readonly string[], chunks: number): string[] {
  const outline: Omit<RunPageData, 'cases'> & { cases: [] } = { kind: 'run', header, cases: [], chunks };
  const text = JSON.stringify(outline);
  const at = text.lastIndexOf(EMPTY_CASES) + EMPTY_CASES.length - 1; // at its `]`
  return commaSeparatedPieces(cases, text.slice(0, at), text.slice(at));
}

const EMPTY_CASES = '"cases":[]';

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
