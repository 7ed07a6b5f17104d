import type { CalibrationReport, ComparisonId, ItemRatings, ReviewerAgreement } from '@parley/calibration';
import type { Gate, Status } from '@parley/core';
import type { BaselineMetricRow } from '@parley/gate';
import type { MessageJudgement, MessageMark, ReportResult, RunReport } from '@parley/reports';

/**
 * What the HTML pages carry, shared by the builder (Node) and the page's own code (browser): the
 * page is drawn from this and nothing else. Types only, so the page bundle takes no Node code.
 */

/** The run as report.json has it, without its results (they are `cases` and the detail chunks). */
export type RunHeader = Omit<RunReport, 'results'>;

/** One case of the run in the list: what filtering, sorting and the list's rows need. */
export interface CaseSummary {
  id: string;
  /** The scenario (`spa_booking` for the case `spa_booking@booking_v2`). */
  scenario: string;
  title?: string;
  status: Status;
  gate: Gate;
  agent: string;
  tags: string[];
  language?: string;
  /** A variant's values (report.json's `vars`), shown on the case. */
  vars?: Record<string, string>;
  reason: string;
  metadata_only: boolean;
  cost_usd: number | null;
  /** Messages of the conversation (0 when withheld). */
  messages: number;
  /** Attempts under `--repeat N`; 1 otherwise. */
  attempts: number;
  flaky_mark: boolean;
  /** Messages with a failure mark. */
  marked_messages: number;
  error_kind?: string;
  /** Where the case's detail is: chunk number and place in it. */
  chunk: number;
  slot: number;
}

/** A case's judgements, failure marks and expectation rows, made by the libraries the TUI uses. */
export interface CaseView {
  /** The expectations against the baseline, in triage order (`metricRowsInTriageOrder`). */
  rows: BaselineMetricRow[];
  /** `failureMarks`: by message index. */
  marks: Array<[number, MessageMark[]]>;
  /** Failing metrics that point at no message. */
  unlocated: string[];
  /** `messageJudgements`: each judge's score and reason by message index. */
  judgements: Array<[number, MessageJudgement[]]>;
}

/** Everything one case shows when opened: its result as in report.json, and its view. */
export interface CaseDetail {
  result: ReportResult;
  view: CaseView;
  /** Under `--repeat N`: each attempt's view, in the order of `result.attempts`. */
  attempt_views: CaseView[];
}

export interface RunPageData {
  kind: 'run';
  header: RunHeader;
  /** In triage order (`triageOrder`, as the TUI lists a run). */
  cases: CaseSummary[];
  chunks: number;
}

/** One item behind a matrix cell: its ratings on the axis, and the raters that make the cell's pairs. */
interface CalibrationCellItem {
  /** Position of the item's ratings on the axis in `CalibrationPageData.item_ratings`. */
  item: number;
  in_cell: string[];
}

/** What lies behind one comparison's confusion matrix on one axis. */
export interface CalibrationCellSet {
  comparison: ComparisonId;
  axis: string;
  /**
   * `cells[row - 1][column - 1]`: the cell's pair count and its items, from `matrixCells` (as
   * `labelledPairs`, `pairsByCell` and `cellItems` give them: what `parley tui kappa` lists on Enter).
   */
  cells: Array<Array<{ pairs: number; items: CalibrationCellItem[] }>>;
  /** Reviewers with a rating in any pair of the comparison on the axis, by name. */
  reviewer_names: string[];
  /** `agreementPerReviewer` of the comparison's pairs on the axis (from `matrixCells`). */
  reviewers: ReviewerAgreement[];
}

export interface CalibrationPageData {
  kind: 'calibration';
  /** The report as written to `reports/<date>.json`. */
  report: CalibrationReport;
  date: string;
  /** Each item's ratings on each axis behind any cell, once; cells name them by position. */
  item_ratings: ItemRatings[];
  /** Absent when the pairs could not be made (the problem says why); the matrices still show counts. */
  cell_sets: CalibrationCellSet[];
  problem?: string;
}

export type PageData = RunPageData | CalibrationPageData;
