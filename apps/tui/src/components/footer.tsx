import { Box, Text } from 'ink';

/** One key binding as the footer shows it: `["q", "back"]`. */
export type KeyHint = readonly [key: string, action: string];

/** The keys of the current screen, on one or two lines at the bottom. */
export function Footer({ keys }: { keys: readonly KeyHint[] }) {
  return (
    <Box flexWrap="wrap" columnGap={2}>
      {keys.map(([key, action]) => (
        <Text key={`${key}-${action}`}>
          <Text bold inverse>
            {` ${key} `}
          </Text>{' '}
          {action}
        </Text>
      ))}
    </Box>
  );
}
