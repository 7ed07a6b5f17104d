import type { ItemRatings } from '@parley/calibration';
import type { CalibrationCellSet } from '../../src/page-data.js';

const RATINGS = [1, 2, 3, 4, 5] as const;

/**
 * A confusion matrix as a heatmap: rows are the first rater's rating, columns the second's; the
 * shade grows with the count (and the count is written in the cell, so it reads without colour).
 * Each cell is a button: choosing it lists the items behind it.
 */
export function Heatmap({
  matrix,
  rowsLabel,
  columnsLabel,
  selected,
  onSelect,
}: {
  matrix: number[][];
  rowsLabel: string;
  columnsLabel: string;
  selected: { row: number; column: number } | undefined;
  onSelect: (cell: { row: number; column: number }) => void;
}) {
  const max = Math.max(1, ...matrix.flat());
  return (
    <table class="heatmap">
      <caption>
        {rowsLabel} (rows) × {columnsLabel} (columns): rating pairs per cell
      </caption>
      <thead>
        <tr>
          <td />
          {RATINGS.map((column) => (
            <th scope="col" key={column}>
              {columnsLabel} {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {RATINGS.map((row) => (
          <tr key={row}>
            <th scope="row">
              {rowsLabel} {row}
            </th>
            {RATINGS.map((column) => {
              const count = matrix[row - 1]?.[column - 1] ?? 0;
              const level = count === 0 ? 0 : Math.min(5, 1 + Math.floor((count / max) * 4.999));
              const isSelected = selected?.row === row && selected.column === column;
              return (
                <td key={column} class={`heat heat-${level}${row === column ? ' diagonal' : ''}`}>
                  <button
                    type="button"
                    data-row={row}
                    data-column={column}
                    aria-pressed={isSelected}
                    aria-label={`${count} pairs: ${rowsLabel} ${row}, ${columnsLabel} ${column}`}
                    onClick={() => onSelect({ row, column })}
                  >
                    {count}
                  </button>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The items behind the chosen cell, each with every rating (the cell's raters' in bold) and the judge's and cross-check's reasons and the reviewers' notes. */
export function CellItems({
  set,
  itemRatings,
  row,
  column,
  rowsLabel,
  columnsLabel,
}: {
  set: CalibrationCellSet;
  /** The page's `item_ratings`, which the cell's items name by position. */
  itemRatings: readonly ItemRatings[];
  row: number;
  column: number;
  rowsLabel: string;
  columnsLabel: string;
}) {
  const cell = set.cells[row - 1]?.[column - 1];
  const items = (cell?.items ?? []).flatMap((entry) => {
    const ratings = itemRatings[entry.item];
    return ratings ? [{ ratings, in_cell: entry.in_cell }] : [];
  });
  const reviewers = set.reviewer_names;
  const pairs = cell?.pairs ?? 0;
  const rating = (item: { in_cell: readonly string[] }, rater: string, value: number | undefined) =>
    value === undefined ? '·' : item.in_cell.includes(rater) ? <strong>{value}</strong> : String(value);
  return (
    <section class="cell-items" aria-live="polite" aria-labelledby="cell-items-heading">
      <h3 id="cell-items-heading">
        {rowsLabel} gave {row}, {columnsLabel} gave {column}
        {row === column ? ' (they agree)' : ` (${Math.abs(row - column)} apart)`}: {items.length} item{items.length === 1 ? '' : 's'}, {pairs} pair{pairs === 1 ? '' : 's'}
      </h3>
      {items.length === 0 ? (
        <p>No item is behind this cell.</p>
      ) : (
        <table class="cell-table">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Axis</th>
              <th scope="col" class="num">
                judge
              </th>
              <th scope="col" class="num">
                cross-check
              </th>
              {reviewers.map((reviewer) => (
                <th scope="col" class="num" key={reviewer}>
                  {reviewer}
                </th>
              ))}
              <th scope="col">Reasons and notes</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={`${item.ratings.itemId}/${item.ratings.axis}`} data-item={item.ratings.itemId}>
                <th scope="row">
                  <code>{item.ratings.itemId}</code>
                </th>
                <td>{item.ratings.axis}</td>
                <td class="num">{rating(item, 'judge', item.ratings.judge?.score)}</td>
                <td class="num">{rating(item, 'cross-check', item.ratings.crossCheck?.score)}</td>
                {reviewers.map((reviewer) => (
                  <td class="num" key={reviewer}>
                    {rating(item, reviewer, item.ratings.humans.find((human) => human.reviewer === reviewer)?.score)}
                  </td>
                ))}
                <td class="reasons">
                  {item.ratings.judge ? (
                    <p class="judge-reason">
                      <strong>judge {item.ratings.judge.score}:</strong> {item.ratings.judge.reason?.trim() || '(no reason given)'}
                    </p>
                  ) : null}
                  {item.ratings.crossCheck ? (
                    <p>
                      <strong>cross-check {item.ratings.crossCheck.score}:</strong> {item.ratings.crossCheck.reason?.trim() || '(no reason given)'}
                    </p>
                  ) : null}
                  {item.ratings.humans
                    .filter((human) => human.note)
                    .map((human) => (
                      <p key={human.reviewer}>
                        <strong>
                          {human.reviewer} {human.score}:
                        </strong>{' '}
                        note: {human.note}
                      </p>
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
