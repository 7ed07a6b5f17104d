import { useState, type ReactNode } from 'react';
import { Box, Text } from 'ink';
import { useNavigation } from '../navigation.js';
import { wrapText } from '../rate/wrap-text.js';
import { MIN_SIZE, useTerminalSize } from '../terminal-size.js';
import { useTheme } from '../theme.js';
import { Footer, type KeyHint } from './footer.js';
import { useKeys } from './keyboard.js';

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
  /** Whether `?` opens the keys overlay (default: when `backKeys`); false while text is typed. */
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
 * `q` quits, `?` lists the keys of the screen over its body. The body gets the terminal height
 * minus the frame, see `useBodyRows`. Below 80×24 the screen says so instead of drawing a body
 * that does not fit (keys then do nothing but Esc, q and Ctrl-C).
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
        {showKeys ? <KeysOverlay keys={overlayKeys(keys, moreKeys)} depth={navigation.depth} backKeys={backKeys} /> : children}
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
function KeysOverlay({ keys, depth, backKeys }: { keys: readonly KeyHint[]; depth: number; backKeys: boolean }) {
  const shared: KeyHint[] = [
    ['?', 'this list of keys (? or Esc closes it)'],
    ...(backKeys || depth > 0 ? [['Esc', depth === 0 ? 'quit, after asking (nothing to go back to)' : 'back to the previous screen'] as KeyHint] : []),
    ['q', 'quit parley tui (asks first when something is unsaved)'],
    ['Ctrl-C', 'quit at once'],
  ];
  // A key the screen lists itself (the rating screen's q) is not listed again among the shared ones.
  const all = [...keys, ...shared.filter(([key]) => !keys.some(([own]) => own === key))];
  const width = Math.min(16, Math.max(...all.map(([key]) => Array.from(key).length)));
  const { columns } = useTerminalSize();
  // An explanation wraps under itself rather than losing its end (the kappa columns' are long).
  const actionWidth = Math.max(10, columns - width - 5);
  return (
    <Box flexDirection="column">
      {all.map(([key, action]) =>
        wrapText(action, actionWidth).map((line, index) => (
          <Text key={`${key}-${action}-${index}`} wrap="truncate-end">
            <Text bold>{index === 0 ? `  ${key.padEnd(width)}` : ' '.repeat(width + 2)}</Text>
            {`  ${line}`}
          </Text>
        )),
      )}
    </Box>
  );
}

/**
 * The footer's keys with the overlay's longer explanations in their place (a key in both is
 * listed once, explained the longer way), then the keys only the overlay lists.
 */
function overlayKeys(keys: readonly KeyHint[], moreKeys: readonly KeyHint[]): KeyHint[] {
  const longer = new Map(moreKeys.map(([key, action]) => [key, action]));
  return [...keys.map(([key, action]): KeyHint => [key, longer.get(key) ?? action]), ...moreKeys.filter(([key]) => !keys.some(([own]) => own === key))];
}

/** Rows a screen body may fill. */
export function useBodyRows(): number {
  return Math.max(1, useTerminalSize().rows - FRAME_ROWS);
}
