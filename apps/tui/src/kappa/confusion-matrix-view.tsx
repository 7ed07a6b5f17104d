import { Box, Text } from 'ink';
import type { StoredAgreementRow } from '@parley/calibration';

const CELL = 5;

/**
 * Rows: the first rater's rating 1–5, columns: the second's (the report's orientation); the
 * diagonal, where they agree, is bold.
 */
export function ConfusionMatrixView({ row, rowsLabel, columnsLabel }: { row: StoredAgreementRow | undefined; rowsLabel: string; columnsLabel: string }) {
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
          {counts.map((count, column) => (
            <Text key={column} bold={column === rating} dimColor={count === 0 && column !== rating}>
              {String(count).padStart(CELL)}
            </Text>
          ))}
        </Text>
      ))}
      <Text dimColor>{`n ${row.n} pairs, ${row.items} items`}</Text>
    </Box>
  );
}
