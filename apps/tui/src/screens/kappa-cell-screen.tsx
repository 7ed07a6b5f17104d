import { Box, Text } from 'ink';
import { ListRow } from '../components/list-row.js';
import { cellItems, OVERALL, type CellItem, type ItemRatings } from '@parley/calibration';
import type { KeyHint } from '../components/footer.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { useListCursor } from '../components/use-list-cursor.js';
import type { KappaCell } from '../kappa/kappa-cell-route.js';
import { fit } from '../kappa/kappa-cells.js';
import { wrapText } from '../rate/wrap-text.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from '../theme.js';

const KEYS: readonly KeyHint[] = [['↑↓', 'item']];

const MORE_KEYS: readonly KeyHint[] = [
  ['g G', 'first / last item'],
  ['PgUp PgDn', 'a page up / down'],
];

const COLUMNS = { id: 18, axis: 13, score: 6 } as const;

/**
 * Enter on a cell of the kappa screen's confusion matrix: the items behind the cell, each with
 * every rating of it on the axis side by side (judge, cross-check, each reviewer; the scores that
 * make the cell's pairs in bold), and for the selected item the judge's and the cross-check's
 * reasons and the reviewers' notes in full.
 */
export function KappaCellScreen({ cell }: { cell: KappaCell }) {
  const theme = useTheme();
  const bodyRows = useBodyRows();
  const { columns } = useTerminalSize();
  const items: CellItem[] = cellItems(cell.pairs);
  const reviewers = [...new Set(items.flatMap((item) => item.ratings.humans.map((human) => human.reviewer)))].sort();
  const overall = cell.axis === OVERALL;
  const [first = 'first', second = 'second'] = cell.label.split(' vs ');
  const listRows = Math.max(1, Math.min(items.length, Math.floor((bodyRows - 4) / 2)));
  const cursor = useListCursor(items.length, listRows);
  const selected = items[cursor.index];
  const changed = cell.pairs.length !== cell.reportCount;
  const detailRows = Math.max(1, bodyRows - 3 - listRows - (changed ? 1 : 0));
  const details = selected ? detailLines(selected.ratings, columns) : [];
  const scoreColumns = Math.max(0, Math.floor((columns - 2 - COLUMNS.id - (overall ? COLUMNS.axis + 1 : 0) - 12) / (COLUMNS.score + 1)));

  return (
    <ScreenFrame
      title={`Kappa · ${cell.label} · ${cell.axis}`}
      status={cellStatus(items, cell.pairs.length, overall)}
      keys={items.length > 1 ? KEYS : []}
      moreKeys={MORE_KEYS}
    >
      <Text wrap="truncate-end" bold>{`${first} gave ${cell.row}, ${second} gave ${cell.column}${cell.row === cell.column ? ' (they agree)' : ` (${Math.abs(cell.row - cell.column)} apart)`}`}</Text>
      {changed ? (
        <Text wrap="truncate-end" color={theme.paint('yellow')}>
          {`the report of ${cell.reportDate} counted ${cell.reportCount} here: the set or the ratings changed since`}
        </Text>
      ) : null}
      {items.length === 0 ? (
        <Text>No item is behind this cell any more.</Text>
      ) : (
        <>
          <Text bold wrap="truncate-end">
            {'  '}
            {fit('item', COLUMNS.id)} {overall ? `${fit('axis', COLUMNS.axis)} ` : ''}
            {fit('judge', COLUMNS.score)} {fit('cross', COLUMNS.score)} {reviewers.slice(0, scoreColumns).map((name) => fit(name, COLUMNS.score)).join(' ')}
          </Text>
          {items.slice(cursor.offset, cursor.offset + listRows).map((item, position) => {
            const current = cursor.offset + position === cursor.index;
            const { ratings } = item;
            const score = (rater: string, value: number | undefined) => (
              <Text bold={item.inCell.has(rater)} underline={item.inCell.has(rater)}>
                {fit(value === undefined ? '·' : String(value), COLUMNS.score)}
              </Text>
            );
            return (
              <ListRow key={`${ratings.itemId}/${ratings.axis}`} selected={current}>
                {fit(ratings.itemId, COLUMNS.id)} {overall ? `${fit(ratings.axis, COLUMNS.axis)} ` : ''}
                {score('judge', ratings.judge?.score)} {score('cross-check', ratings.crossCheck?.score)}{' '}
                {reviewers.slice(0, scoreColumns).map((name) => (
                  <Text key={name}>
                    {score(name, ratings.humans.find((human) => human.reviewer === name)?.score)}{' '}
                  </Text>
                ))}
              </ListRow>
            );
          })}
          <Text dimColor>{'─'.repeat(columns)}</Text>
          <Box flexDirection="column" height={detailRows} overflow="hidden">
            {details.slice(0, detailRows).map((line, index) => (
              <Text key={index} wrap="truncate-end" bold={line.heading}>
                {line.text}
              </Text>
            ))}
          </Box>
        </>
      )}
    </ScreenFrame>
  );
}

/** The selected item's reasons and notes, wrapped to the width. */
function detailLines(ratings: ItemRatings, columns: number): Array<{ text: string; heading: boolean }> {
  const lines: Array<{ text: string; heading: boolean }> = [{ text: `${ratings.itemId} · ${ratings.axis}`, heading: true }];
  const add = (who: string, score: number, text: string | null | undefined) => {
    const body = `${who} ${score}: ${text && text.trim() !== '' ? text.trim() : '(no reason given)'}`;
    for (const line of wrapText(body, columns - 1, 4)) lines.push({ text: line, heading: false });
  };
  if (ratings.judge) add('judge', ratings.judge.score, ratings.judge.reason);
  if (ratings.crossCheck) add('cross-check', ratings.crossCheck.score, ratings.crossCheck.reason);
  for (const human of ratings.humans) {
    if (human.note) add(human.reviewer, human.score, `note: ${human.note}`);
  }
  return lines;
}

/**
 * `12 items · 16 pairs`: distinct items. On overall a row is an item on one axis, so the rows are
 * counted apart when they differ from the items (`12 items (13 item·axis rows) · 16 pairs`).
 */
export function cellStatus(items: readonly CellItem[], pairs: number, overall: boolean): string {
  const distinct = new Set(items.map((item) => item.ratings.itemId)).size;
  const rows = overall && items.length !== distinct ? ` (${items.length} item·axis rows)` : '';
  return `${distinct} item${distinct === 1 ? '' : 's'}${rows} · ${pairs} pair${pairs === 1 ? '' : 's'}`;
}
