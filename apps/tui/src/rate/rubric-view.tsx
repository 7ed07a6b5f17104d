import { Box, Text } from 'ink';
import type { RubricLine } from './rubric-lines.js';

/** `rows` lines of the rubric from line `offset`. */
export function RubricView({ lines, offset, rows }: { lines: readonly RubricLine[]; offset: number; rows: number }) {
  return (
    <Box flexDirection="column" height={rows}>
      {lines.slice(offset, offset + rows).map((line, index) => (
        <Text key={offset + index} bold={line.heading} wrap="truncate">
          {line.text === '' ? ' ' : line.text}
        </Text>
      ))}
    </Box>
  );
}
