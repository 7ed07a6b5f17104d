import { Box, Text } from 'ink';
import { useTheme } from '../theme.js';

/** One line per axis: the focused one marked `▸`, the score given `[4]` or `[ ]` when none yet. */
export function AxisScores({ axes, scores, focus }: { axes: readonly string[]; scores: Readonly<Record<string, number>>; focus: number }) {
  const theme = useTheme();
  const width = Math.max(...axes.map((axis) => axis.length));
  return (
    <Box flexDirection="column">
      {axes.map((axis, index) => {
        const focused = index === focus;
        const score = scores[axis];
        return (
          <Text key={axis} wrap="truncate">
            <Text bold={focused} color={focused ? theme.paint('cyan') : undefined}>
              {focused ? '▸ ' : '  '}
              {axis.padEnd(width)}
            </Text>{' '}
            <Text bold inverse={focused}>{score === undefined ? '[ ]' : `[${score}]`}</Text>
            {focused ? <Text dimColor> 1–5 (1 worst, 5 best)</Text> : null}
          </Text>
        );
      })}
    </Box>
  );
}
