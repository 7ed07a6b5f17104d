import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import { useNavigation } from '../navigation.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from '../theme.js';
import { Footer, type KeyHint } from './footer.js';
import { useKeys } from './keyboard.js';

/** Rows the frame itself takes: title line, rule under it, footer (up to two lines). */
export const FRAME_ROWS = 4;

export interface ScreenFrameProps {
  title: string;
  /** Right side of the title line (a count, a run id). */
  status?: string;
  keys: readonly KeyHint[];
  /** False while the screen reads text (a note, a filter): q and Esc then belong to the input. */
  backKeys?: boolean;
  children: ReactNode;
}

/**
 * Every screen's outline: title, body, key footer; `q` and Esc go back (quit from the first
 * screen). The body gets the terminal height minus the frame, see `useBodyRows`.
 */
export function ScreenFrame({ title, status, keys, backKeys = true, children }: ScreenFrameProps) {
  const navigation = useNavigation();
  const theme = useTheme();
  const { columns, rows } = useTerminalSize();
  useKeys(
    (input, key) => {
      if (input === 'q' || key.escape) navigation.back();
    },
    { isActive: backKeys },
  );
  const backHint: KeyHint = ['q', navigation.depth === 0 ? 'quit' : 'back'];
  return (
    <Box flexDirection="column" width={columns} height={rows}>
      <Box justifyContent="space-between">
        <Text bold color={theme.paint('cyan')}>
          {title}
        </Text>
        {status ? <Text dimColor>{status}</Text> : null}
      </Box>
      <Text dimColor>{'─'.repeat(Math.max(0, columns))}</Text>
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        {children}
      </Box>
      <Footer keys={backKeys ? [...keys, backHint] : keys} />
    </Box>
  );
}

/** Rows a screen body may fill. */
export function useBodyRows(): number {
  return Math.max(1, useTerminalSize().rows - FRAME_ROWS);
}
