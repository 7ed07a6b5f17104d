import { Box, Text } from 'ink';
import type { StoredAgreementRow } from '@parley/calibration';

const CELL = 5;

/** A cell of the matrix: the first rater's rating (row) and the second's (column), 1–5. */
export interface MatrixCell {
  row: number;
  column: number;
}

/**
 * Rows: the first rater's rating 1–5, columns: the second's (the report's orientation); the
 * diagonal, where they agree, is bold; the cell under the cursor is shown in inverse (Enter lists
 * the items behind it).
 */
export function ConfusionMatrixView({ row, rowsLabel, columnsLabel, cursor }: { row: StoredAgreementRow | undefined; rowsLabel: string; columnsLabel: string; cursor?: MatrixCell }) {
  if (row === undefined) return <Text dimColor>no pairs for this comparison</Text>;
  const corner = `${rowsLabel.slice(0, 1)}\\${columnsLabel.slice(0, 1)}`;
  return (
    <Box flexDirection="column">
      <Text bold>
        {corner.padEnd(4)}
        {row.confusion_matrix.map((_, column) => String(column + 1).padStart(CELL)).join('')}
      </Text>
      {row.confusion_matrix.map((counts, rating) => (
        <Text key={rating}>
          <Text bold>{String(rating + 1).padEnd(4)}</Text>
          {counts.map((count, column) => {
            const underCursor = cursor !== undefined && cursor.row === rating + 1 && cursor.column === column + 1;
            const text = String(count).padStart(underCursor ? CELL - 2 : CELL - 1);
            return (
              <Text key={column}>
                {underCursor ? '[' : ' '}
                <Text bold={column === rating || underCursor} inverse={underCursor} dimColor={count === 0 && column !== rating && !underCursor}>
                  {text}
                </Text>
                {underCursor ? ']' : ''}
              </Text>
            );
          })}
        </Text>
      ))}
      <Text dimColor>{`n ${row.n} pairs, ${row.items} items`}</Text>
    </Box>
  );
}

/**
 * Where the cursor starts: the off-diagonal cell with the most pairs (the commonest disagreement),
 * else the diagonal's largest.
 */
export function startCell(matrix: readonly (readonly number[])[]): MatrixCell {
  let best: MatrixCell & { count: number; off: boolean } = { row: 1, column: 1, count: -1, off: false };
  matrix.forEach((counts, row) =>
    counts.forEach((count, column) => {
      const off = row !== column;
      const better = off && !best.off ? count > 0 : off === best.off && count > best.count;
      if (better) best = { row: row + 1, column: column + 1, count, off };
    }),
  );
  return { row: best.row, column: best.column };
}
