import { matrixCells, OVERALL, pairTable, type CalibrationReport, type ItemRatings, type PairSource } from '@parley/calibration';
import type { CalibrationCellSet, CalibrationPageData } from './page-data.js';

/**
 * The calibration page's data: the report as written to `reports/<date>.json`, and for every
 * comparison on every axis (and overall) the items behind each cell of its confusion matrix
 * and the agreement per reviewer (`matrixCells`: what `parley tui kappa` lists a cell's items and
 * reviewers with, `labelledPairs`, `pairsByCell`, `cellItems` and `agreementPerReviewer`, in one
 * pass without making the pairs).
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
      const { cells: byCell, reviewerNames, reviewers } = matrixCells(source, id, axis, table);
      const cells = byCell.map((row) => row.map((cell) => ({ pairs: cell.pairs, items: cell.items.map((item) => ({ item: position(item.ratings), in_cell: item.inCell })) })));
      cellSets.push({ comparison: id, axis, cells, reviewer_names: reviewerNames, reviewers });
    }
  }
  return { kind: 'calibration', report, date, item_ratings: itemRatings, cell_sets: cellSets };
}
