import type { CalibrationSet } from '@parley/config';
import { cohenKappa } from '../statistics/cohen-kappa.js';
import { labelPosition } from '../statistics/confusion-matrix.js';
import { RATING_LABELS, type RatingPair } from '../statistics/rating-labels.js';
import type { StoredJudgeRating } from '../store/calibration-store.js';
import type { Measured } from './agreement-summary.js';
import { OVERALL, type ComparisonId } from './comparison-pairs.js';
import { itemDigests } from './item-digests.js';

/** A model's score of an item on one axis, with the reason it gave for its rating. */
export interface ModelScore {
  score: number;
  reason: string | null;
}

/** Who gave the ratings of one item on one axis, side by side. */
export interface ItemRatings {
  itemId: string;
  axis: string;
  judge?: ModelScore;
  crossCheck?: ModelScore;
  /** Reviewers in name order, with their score and note. */
  humans: Array<{ reviewer: string; score: number; note?: string }>;
}

/** One rating pair of a comparison, and whose ratings it pairs: one entry of a confusion matrix. */
export interface LabelledPair {
  /** `judge`, `cross-check`, or a reviewer's name. */
  first: string;
  second: string;
  pair: RatingPair;
  item: ItemRatings;
}

/** What the pairs are made from: the set, and the ratings of the report's judge session. */
export interface PairSource {
  set: CalibrationSet;
  /** Only human ratings given under this rubric version count (as in the report). */
  rubricVersion: string;
  /** The session's model ratings (`CalibrationStore.ratings(session id)`). */
  modelRatings: readonly StoredJudgeRating[];
}

/**
 * Every item's ratings on every axis of the set, made once from a {@link PairSource}: which model
 * ratings count (of the item's text as it is now), which reviewers (of the session's rubric
 * version, in name order). {@link labelledPairs} takes one to make the pairs of several
 * comparisons and axes from the same objects; a page listing all 16 matrices of a 3-axis set
 * made them 16 times over.
 */
export interface PairTable {
  source: PairSource;
  /** In set order: per item, its ratings on each axis of the set. */
  items: ReadonlyArray<ReadonlyMap<string, ItemRatings>>;
}

export function pairTable(source: PairSource): PairTable {
  const digests = itemDigests(source.set);
  const models = { judge: new Map<string, StoredJudgeRating>(), cross_check: new Map<string, StoredJudgeRating>() };
  for (const rating of source.modelRatings) {
    if (rating.scores === null || digests.get(rating.item_id) !== rating.item_digest) continue;
    models[rating.rater].set(rating.item_id, rating);
  }
  const items = source.set.items.map((item) => {
    const reviewers = item.ratings
      .filter((rating) => rating.rubric_version === source.rubricVersion)
      .sort((left, right) => (left.reviewer < right.reviewer ? -1 : left.reviewer > right.reviewer ? 1 : 0));
    const judge = models.judge.get(item.id);
    const crossCheck = models.cross_check.get(item.id);
    return new Map(source.set.axes.map((axis) => [axis, itemRatings(item.id, axis, judge, crossCheck, reviewers)]));
  });
  return { source, items };
}

/**
 * The rating pairs of one comparison on one axis (or `overall`: every axis), each labelled with
 * the item and the raters, made the way the report makes them (see `comparisonTables`): a model is
 * paired with every reviewer of an item, reviewers with each other in name order; only human
 * ratings of the session's rubric version and model ratings of the item's text as it is now count.
 * Counting them by rating gives the report's confusion matrix; this is what lies behind each cell.
 * Pairs made from the same `table` share their {@link ItemRatings} objects.
 */
export function labelledPairs(source: PairSource, comparison: ComparisonId, axis: string, table: PairTable = pairTable(source)): LabelledPair[] {
  const pairs: LabelledPair[] = [];
  forEachItemOf(source, axis, table, (item) => forEachPair(item, comparison, (first, second, firstScore, secondScore) => pairs.push({ first, second, pair: [firstScore, secondScore], item })));
  return pairs;
}

/** Each item's ratings on `axis` (or on every axis, in set order, for `overall`), in set order. */
function forEachItemOf(source: PairSource, axis: string, table: PairTable, visit: (item: ItemRatings) => void): void {
  const axes = axis === OVERALL ? source.set.axes : [axis];
  for (const byAxis of table.items) {
    for (const name of axes) {
      const item = byAxis.get(name);
      if (item !== undefined) visit(item);
    }
  }
}

/**
 * The rating pairs one item's ratings on an axis make in a comparison, in the order
 * {@link labelledPairs} lists them: a model with every reviewer, reviewers with each other in name
 * order. The one place that says which raters a comparison pairs.
 */
function forEachPair(item: ItemRatings, comparison: ComparisonId, visit: (first: string, second: string, firstScore: number, secondScore: number) => void): void {
  const { judge, crossCheck, humans } = item;
  switch (comparison) {
    case 'judge_vs_human':
      if (judge) for (const human of humans) visit('judge', human.reviewer, judge.score, human.score);
      break;
    case 'cross_check_vs_human':
      if (crossCheck) for (const human of humans) visit('cross-check', human.reviewer, crossCheck.score, human.score);
      break;
    case 'judge_vs_cross_check':
      if (judge && crossCheck) visit('judge', 'cross-check', judge.score, crossCheck.score);
      break;
    case 'human_vs_human':
      for (let index = 0; index < humans.length; index += 1) {
        const first = humans[index]!;
        for (let other = index + 1; other < humans.length; other += 1) {
          const second = humans[other]!;
          visit(first.reviewer, second.reviewer, first.score, second.score);
        }
      }
      break;
  }
}

function itemRatings(
  itemId: string,
  axis: string,
  judge: StoredJudgeRating | undefined,
  crossCheck: StoredJudgeRating | undefined,
  reviewers: ReadonlyArray<Readonly<Record<string, unknown>> & { reviewer: string }>,
): ItemRatings {
  const model = (rating: StoredJudgeRating | undefined): ModelScore | undefined => {
    const score = rating?.scores?.[axis];
    return score === undefined ? undefined : { score, reason: rating?.reason ?? null };
  };
  const humans = reviewers.flatMap((rating) => {
    const score = rating[axis];
    if (typeof score !== 'number') return [];
    const note = typeof rating.note === 'string' && rating.note.trim() !== '' ? rating.note : undefined;
    return [{ reviewer: rating.reviewer, score, ...(note ? { note } : {}) }];
  });
  const judgeScore = model(judge);
  const crossScore = model(crossCheck);
  return { itemId, axis, humans, ...(judgeScore ? { judge: judgeScore } : {}), ...(crossScore ? { crossCheck: crossScore } : {}) };
}

/** The pairs behind one cell of the confusion matrix: the first rater gave `row`, the second `column`. */
export function pairsInCell(pairs: readonly LabelledPair[], row: number, column: number): LabelledPair[] {
  return pairs.filter(({ pair }) => pair[0] === row && pair[1] === column);
}

/**
 * The pairs behind every cell at once, `[row − 1][column − 1]` for ratings 1–5, each as
 * {@link pairsInCell} gives it: one pass over the pairs instead of one per cell (a page lists all
 * 25 cells of 16 matrices).
 */
export function pairsByCell(pairs: readonly LabelledPair[]): LabelledPair[][][] {
  const cells = Array.from({ length: 5 }, () => Array.from({ length: 5 }, (): LabelledPair[] => []));
  for (const labelled of pairs) {
    const at = cellOf(labelled.pair[0], labelled.pair[1]);
    if (at >= 0) cells[Math.floor(at / 5)]![at % 5]!.push(labelled);
  }
  return cells;
}

/** A pair's cell, `(row − 1) · 5 + column − 1` for ratings 1–5; −1 for a pair outside the matrix. */
function cellOf(row: number, column: number): number {
  return Number.isInteger(row) && Number.isInteger(column) && row >= 1 && row <= 5 && column >= 1 && column <= 5 ? (row - 1) * 5 + column - 1 : -1;
}

/** One item (on one axis) behind a matrix cell, and which of its raters make the cell's pairs. */
export interface CellItem {
  ratings: ItemRatings;
  /** `judge`, `cross-check` and reviewer names whose scores form pairs of the cell. */
  inCell: ReadonlySet<string>;
}

/**
 * A cell's pairs (see {@link pairsInCell}) grouped by item and axis, in set order: the list that
 * `parley tui kappa` and the calibration report's page show for a cell.
 */
export function cellItems(pairs: readonly LabelledPair[]): CellItem[] {
  // By item, then axis (no key string built per pair); entries in the order they first appear.
  const byItem = new Map<string, Map<string, { ratings: ItemRatings; inCell: Set<string> }>>();
  const items: Array<{ ratings: ItemRatings; inCell: Set<string> }> = [];
  for (const pair of pairs) {
    let byAxis = byItem.get(pair.item.itemId);
    if (byAxis === undefined) byItem.set(pair.item.itemId, (byAxis = new Map()));
    let entry = byAxis.get(pair.item.axis);
    if (entry === undefined) {
      entry = { ratings: pair.item, inCell: new Set<string>() };
      byAxis.set(pair.item.axis, entry);
      items.push(entry);
    }
    entry.inCell.add(pair.first);
    entry.inCell.add(pair.second);
  }
  return items;
}

/** Agreement with one reviewer: the pairs that have them on either side. */
export interface ReviewerAgreement {
  reviewer: string;
  n: number;
  kappaQuadratic: Measured;
  exact: Measured;
  /** First − second, with the reviewer taken as the second rater (judge − reviewer). */
  bias: Measured;
}

/**
 * Per reviewer, the agreement of their pairs of the comparison: a model against that reviewer, or
 * (human vs human) that reviewer against every other, the reviewer always as the second rater.
 * Empty when no reviewer takes part (judge vs cross-check).
 */
export function agreementPerReviewer(pairs: readonly LabelledPair[]): ReviewerAgreement[] {
  const tally = reviewerTally();
  for (const { first, second, pair } of pairs) tally.add(first, second, pair[0], pair[1]);
  return tally.agreements();
}

/**
 * Counts per reviewer what {@link agreementPerReviewer} reports, pair by pair: the confusion
 * matrix, the pairs, the equal ones and the sum of differences (whole ratings: the sum is exact,
 * so the bias is the mean of the differences to the last bit), without a list of pairs per reviewer.
 */
function reviewerTally(): { add(first: string, second: string, firstScore: number, secondScore: number): void; agreements(): ReviewerAgreement[] } {
  const byReviewer = new Map<string, { matrix: number[][]; n: number; equal: number; difference: number }>();
  const count = (reviewer: string, first: number, second: number) => {
    let tally = byReviewer.get(reviewer);
    if (tally === undefined) byReviewer.set(reviewer, (tally = { matrix: RATING_LABELS.map(() => RATING_LABELS.map(() => 0)), n: 0, equal: 0, difference: 0 }));
    tally.matrix[labelPosition(RATING_LABELS, first)]![labelPosition(RATING_LABELS, second)]! += 1;
    tally.n += 1;
    if (first === second) tally.equal += 1;
    tally.difference += first - second;
  };
  return {
    add(first, second, firstScore, secondScore) {
      if (second === 'judge' || second === 'cross-check') return;
      count(second, firstScore, secondScore);
      if (first !== 'judge' && first !== 'cross-check') count(first, secondScore, firstScore);
    },
    agreements() {
      return [...byReviewer.keys()].sort().map((reviewer) => {
        const { matrix, n, equal, difference } = byReviewer.get(reviewer)!;
        return { reviewer, n, kappaQuadratic: cohenKappa(matrix, 'quadratic') ?? null, exact: equal / n, bias: difference / n };
      });
    },
  };
}

/** One item (on one axis) behind a matrix cell, as {@link matrixCells} lists it. */
export interface MatrixCellItem {
  ratings: ItemRatings;
  /** `judge`, `cross-check` and reviewer names whose scores form pairs of the cell, in the order they first do. */
  inCell: string[];
}

/** What lies behind one comparison's confusion matrix on one axis (see {@link matrixCells}). */
export interface MatrixCells {
  /** `cells[row − 1][column − 1]`: how many pairs, and their items as {@link cellItems} groups them. */
  cells: Array<Array<{ pairs: number; items: MatrixCellItem[] }>>;
  /** Reviewers of the items that make any pair, by name. */
  reviewerNames: string[];
  /** {@link agreementPerReviewer} of the pairs. */
  reviewers: ReviewerAgreement[];
}

/**
 * {@link labelledPairs}, then {@link pairsByCell}, {@link cellItems} of every cell and
 * {@link agreementPerReviewer}, in one pass over the pair table without making the pairs: the
 * calibration page lists all 16 matrices of a 3-axis set, and on 1,000 items those steps made
 * 36,000 labelled pairs and sorted, grouped and copied them again, a sixth of the command's time.
 * An item's pairs follow one another, so a cell's items group by looking at its last one.
 */
export function matrixCells(source: PairSource, comparison: ComparisonId, axis: string, table: PairTable = pairTable(source)): MatrixCells {
  const cells = Array.from({ length: 5 }, () => Array.from({ length: 5 }, () => ({ pairs: 0, items: [] as MatrixCellItem[] })));
  const flat = cells.flat();
  const names = new Set<string>();
  const tally = reviewerTally();
  forEachItemOf(source, axis, table, (item) => {
    let paired = false;
    forEachPair(item, comparison, (first, second, firstScore, secondScore) => {
      paired = true;
      tally.add(first, second, firstScore, secondScore);
      const at = cellOf(firstScore, secondScore);
      if (at < 0) return;
      const cell = flat[at]!;
      cell.pairs += 1;
      let last = cell.items[cell.items.length - 1];
      if (last?.ratings !== item) cell.items.push((last = { ratings: item, inCell: [] }));
      if (!last.inCell.includes(first)) last.inCell.push(first);
      if (!last.inCell.includes(second)) last.inCell.push(second);
    });
    if (paired) for (const human of item.humans) names.add(human.reviewer);
  });
  return { cells, reviewerNames: [...names].sort(), reviewers: tally.agreements() };
}
