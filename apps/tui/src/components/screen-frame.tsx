import { useState, type ReactNode } from 'react';
import { Box, Text } from 'ink';
import { useNavigation } from '../navigation.js';
import { MIN_SIZE, useTerminalSize } from '../terminal-size.js';
import { useTheme } from '../theme.js';
import { Footer, type KeyHint } from './footer.js';
import { useKeys } from './keyboard.js';
import { keyListLines, screenKeyList } from './key-list.js';

const QUIT_QUESTION = 'Quit parley tui? y quits · n or Esc stays';

/** Rows the frame itself takes: title line, rule under it, footer (up to two lines). */
const FRAME_ROWS = 4;

export interface ScreenFrameProps {
  title: string;
  /** Right side of the title line (a count, a run id). */
  status?: string;
  /** The screen's own keys: in the footer, and first in the keys overlay (`?`). */
  keys: readonly KeyHint[];
  /** Keys listed only in the overlay (the footer has no room for them). */
  moreKeys?: readonly KeyHint[];
  /**
   * False while the screen reads text (a note, a filter) or asks a question: q and Esc then belong
   * to the screen. The screen handles them itself then (the rating screen always does).
   */
  backKeys?: boolean;
  /**
   * Whether `?` opens the keys overlay (default: when `backKeys`); false while text is typed, and
   * on the rating screen, whose `?` opens the rubric (the keys are listed at its end).
   */
  helpKey?: boolean;
  /** Esc belongs to the screen for now (it clears a filter first); q still quits. */
  escapeTaken?: boolean;
  /**
   * What leaving now would drop (`cal-… has scores that are not saved`). The screen asks about it
   * itself; while the terminal is too small to show the screen, the size notice asks instead.
   */
  unsaved?: string;
  children: ReactNode;
}

/**
 * Every screen's outline: title, body, key footer. Esc goes back (asks to quit on the first screen),
 * `q` quits, `?` lists the keys of the screen over its body (see `helpKey`). The body gets the
 * terminal height minus the frame, see `useBodyRows`. Below 80×24 the screen says so instead of
 * drawing a body that does not fit (keys then do nothing but Esc, q and Ctrl-C).
 */
export function ScreenFrame({ title, status, keys, moreKeys = [], backKeys = true, helpKey = backKeys, escapeTaken = false, unsaved, children }: ScreenFrameProps) {
  const navigation = useNavigation();
  const theme = useTheme();
  const { columns, rows } = useTerminalSize();
  const [showKeys, setShowKeys] = useState(false);
  const [leaving, setLeaving] = useState<'quit' | 'back' | undefined>(undefined);
  const tooSmall = columns < MIN_SIZE.columns || rows < MIN_SIZE.rows;
  useKeys(
    (input, key) => {
      if (input === 'q') navigation.quit();
      else if (key.escape && !escapeTaken) navigation.back();
    },
    { isActive: backKeys && !showKeys },
  );
  useKeys(
    (input) => {
      if (input === '?') setShowKeys(true);
    },
    { isActive: helpKey && !showKeys && !tooSmall },
  );
  // Esc on the first screen asked whether to quit: the answer takes every key.
  useKeys(
    (input, key) => {
      const answer = input.toLowerCase();
      if (answer === 'y' || input === 'q') navigation.quit();
      else if (answer === 'n' || key.escape) navigation.cancelQuit();
    },
    { isActive: navigation.quitAsked, exclusive: true },
  );
  // The overlay and the size notice take every key from the screen underneath.
  useKeys(
    (input, key) => {
      if (tooSmall) {
        const leave = (how: 'quit' | 'back') => (how === 'quit' ? navigation.quit() : navigation.back());
        if (leaving !== undefined && unsaved !== undefined) {
          if (input.toLowerCase() === 'y') leave(leaving);
          if (input.toLowerCase() === 'y' || input.toLowerCase() === 'n' || key.escape) setLeaving(undefined);
          return;
        }
        const how = input === 'q' ? 'quit' : key.escape ? 'back' : undefined;
        // Nothing is dropped without asking, even when the screen cannot be drawn.
        if (how !== undefined && unsaved === undefined) leave(how);
        else if (how !== undefined) setLeaving(how);
        return;
      }
      if (input === '?' || key.escape || key.return) setShowKeys(false);
      else if (input === 'q') navigation.quit();
    },
    { isActive: showKeys || tooSmall, exclusive: true },
  );
  if (tooSmall) {
    return (
      <Box flexDirection="column" width={columns} height={rows}>
        <Text wrap="wrap">{`terminal too small (needs ${MIN_SIZE.columns}×${MIN_SIZE.rows}; this one is ${columns}×${rows})`}</Text>
        {navigation.quitAsked ? (
          <Text wrap="wrap" bold>
            {QUIT_QUESTION}
          </Text>
        ) : leaving !== undefined && unsaved !== undefined ? (
          <Text wrap="wrap" bold>{`${unsaved}: ${leaving === 'quit' ? 'quit' : 'leave'} anyway and drop them? y/n`}</Text>
        ) : (
          <Text wrap="wrap" dimColor>
            {unsaved === undefined ? 'Make the window larger; Esc goes back, q quits.' : `Make the window larger; ${unsaved} (Esc or q asks first).`}
          </Text>
        )}
      </Box>
    );
  }
  const backHint: KeyHint = navigation.depth === 0 ? ['q', 'quit'] : ['Esc', 'back'];
  const footer: KeyHint[] = [...keys, ...(helpKey ? [['?', 'keys'] as KeyHint] : []), ...(backKeys && !escapeTaken ? [backHint] : [])];
  return (
    <Box flexDirection="column" width={columns} height={rows}>
      <Box justifyContent="space-between">
        <Text bold color={theme.paint('cyan')} wrap="truncate-end">
          {showKeys ? `Keys · ${title}` : title}
        </Text>
        {status ? (
          <Text dimColor wrap="truncate-start">
            {status}
          </Text>
        ) : null}
      </Box>
      <Text dimColor>{'─'.repeat(Math.max(0, columns))}</Text>
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        {showKeys ? <KeysOverlay keys={screenKeyList(keys, moreKeys, { depth: navigation.depth, backKeys })} /> : children}
      </Box>
      {navigation.quitAsked ? (
        <Text bold wrap="truncate-end">
          {QUIT_QUESTION}
        </Text>
      ) : (
        <Footer keys={showKeys ? [['? Esc', 'close']] : footer} />
      )}
    </Box>
  );
}

/** Every key of the screen, one per line, then the keys every screen shares. */
function KeysOverlay({ keys }: { keys: readonly KeyHint[] }) {
  const { columns } = useTerminalSize();
  return (
    <Box flexDirection="column">
      {keyListLines(keys, columns).map((line, index) => (
        <Text key={index} wrap="truncate-end">
          <Text bold>{line.key}</Text>
          {line.action}
        </Text>
      ))}
    </Box>
  );
}

/** Rows a screen body may fill. */
export function useBodyRows(): number {
  return Math.max(1, useTerminalSize().rows - FRAME_ROWS);
}
