import { agreementPerReviewer, cellItems, labelledPairs, OVERALL, pairsByCell, pairTable, type CalibrationReport, type ItemRatings, type PairSource } from '@parley/calibration';
import type { CalibrationCellSet, CalibrationPageData } from './page-data.js';

/** The ratings 1–5 of the confusion matrices. */
const RATINGS = [1, 2, 3, 4, 5] as const;

/**
 * The calibration page's data: the report as written to `reports/<date>.json`, and for every
 * comparison on every axis (and overall) the items behind each cell of its confusion matrix
 * (`labelledPairs`, `pairsByCell`, `cellItems`) and the agreement per reviewer
 * (`agreementPerReviewer`): the same functions `parley tui kappa` lists a cell's items with.
 * Each item's ratings on an axis are written once (`item_ratings`), and a cell names them by
 * position: written out in every cell they were listed up to eight times (7.7 MB of JSON for
 * 1,000 items × 3 axes, more than the statistics took to compute, compress and write).
 *
 * `source` is the set and the report's judge session ratings; a string says why they could not be
 * read, and the page then shows the counts without the items.
 */
export function calibrationPageData(report: CalibrationReport, source: PairSource | string): CalibrationPageData {
  const date = report.generated_at.slice(0, 10);
  if (typeof source === 'string') return { kind: 'calibration', report, date, item_ratings: [], cell_sets: [], problem: source };
  const axes = [...report.set.axes, OVERALL];
  const table = pairTable(source);
  const itemRatings: ItemRatings[] = [];
  const positions = new Map<ItemRatings, number>();
  const position = (ratings: ItemRatings): number => {
    let at = positions.get(ratings);
    if (at === undefined) {
      at = itemRatings.push(ratings) - 1;
      positions.set(ratings, at);
    }
    return at;
  };
  const cellSets: CalibrationCellSet[] = [];
  for (const comparison of report.comparisons) {
    const id = comparison.id;
    for (const axis of axes) {
      const pairs = labelledPairs(source, id, axis, table);
      const byCell = pairsByCell(pairs);
      const cells = RATINGS.map((row) =>
        RATINGS.map((column) => {
          const inCell = byCell[row - 1]![column - 1]!;
          return { pairs: inCell.length, items: cellItems(inCell).map((item) => ({ item: position(item.ratings), in_cell: [...item.inCell] })) };
        }),
      );
      const names = new Set<string>();
      for (const pair of pairs) for (const human of pair.item.humans) names.add(human.reviewer);
      const reviewerNames = [...names].sort();
      cellSets.push({ comparison: id, axis, cells, reviewer_names: reviewerNames, reviewers: agreementPerReviewer(pairs) });
    }
  }
  return { kind: 'calibration', report, date, item_ratings: itemRatings, cell_sets: cellSets };
}
