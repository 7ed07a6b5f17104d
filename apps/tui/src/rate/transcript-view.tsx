import { Box, Text } from 'ink';
import { useTheme } from '../theme.js';
import type { TranscriptLine } from './transcript-lines.js';

/** `rows` lines of a transcript from line `offset`: the role column, then the message text. */
export function TranscriptView({ lines, offset, rows }: { lines: readonly TranscriptLine[]; offset: number; rows: number }) {
  const theme = useTheme();
  const shown = lines.slice(offset, offset + rows);
  return (
    <Box flexDirection="column" height={rows}>
      {shown.map((line, index) => (
        <Text key={offset + index} wrap="truncate">
          <Text bold={line.role === 'assistant'} color={theme.paint(line.role === 'assistant' ? 'green' : 'blue')}>
            {line.label}
          </Text>
          <Text dimColor> │ </Text>
          <Text>{line.text}</Text>
        </Text>
      ))}
    </Box>
  );
}
