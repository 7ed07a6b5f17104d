import { relative } from 'node:path';
import { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { diffConversations, recordedConversation, type ConversationDiff } from '@parley/providers';
import type { Rerecording } from '@parley/runner';
import { useBodyRows } from '../../components/screen-frame.js';
import { useTerminalSize } from '../../terminal-size.js';
import { useTheme } from '../../theme.js';
import { maxOffset, StyledLines, type StyledLine } from '../styled-lines.js';
import { diffStyledLines } from './diff-lines.js';
import { diffPairs, SIDE_BY_SIDE_COLUMNS, sideBySideLines } from './side-by-side-lines.js';
import { messageOf } from './triage-facts.js';
import { useKeys } from '../../components/keyboard.js';
import { useNavigation } from '../../navigation.js';
import { wrapText } from '../../rate/wrap-text.js';

/** Rows of the panel above the diff lines: the heading and the legend (and the status line when there is one). */
const PANEL_HEADER_ROWS = 2;

export interface DiffPanelProps {
  rerecording: Rerecording;
  /** The suite folder, to show the recording's path as people know it. */
  suiteDir: string;
  /** Whether the recorded conversation replaced by this run is the comparison base (record mode). */
  againstReplaced: boolean;
  /** A metadata_only scenario: nothing of the conversation is shown until revealed here with `r`. */
  metadataOnly: boolean;
  isActive: boolean;
  onClose(): void;
  /** The actions' status line (the panel takes the screen's body, where it would be shown). */
  message?: string;
}

/**
 * The re-recorded conversation against the recording, as a line diff (`-` only in the recording,
 * `+` only in the new conversation) with long lines wrapped and the changed words of a changed
 * line in inverse video, scrollable; Esc closes it, q quits. From 120 columns on the two
 * conversations are side by side, each line cut to its column but the selected one (↑↓). The diff itself is
 * `diffConversations` of @parley/providers.
 */
export function DiffPanel({ rerecording, suiteDir, againstReplaced, metadataOnly, isActive, onClose, message }: DiffPanelProps) {
  const theme = useTheme();
  const navigation = useNavigation();
  const bodyRows = useBodyRows();
  const [revealed, setRevealed] = useState(!metadataOnly);
  const [diff, setDiff] = useState<ConversationDiff | { problem: string } | undefined>(undefined);
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    if (!revealed) return;
    let current = true;
    diffConversations(recordedConversation(rerecording.recorded), recordedConversation(rerecording.kept)).then(
      (computed) => {
        if (current) setDiff(computed);
      },
      (error: unknown) => {
        if (current) setDiff({ problem: messageOf(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [revealed, rerecording]);

  const { columns } = useTerminalSize();
  const file = relative(suiteDir, rerecording.recordingFile) || rerecording.recordingFile;
  const headingOf = (): string => {
    const base = againstReplaced ? `the ${file} this run replaced` : file;
    if (!revealed) return 'This scenario is metadata_only: its conversation is not shown.';
    else if (diff === undefined) return 'Comparing…';
    else if ('problem' in diff) return `Cannot compare: ${diff.problem}`;
    else if (diff.added === 0 && diff.removed === 0) return `The new conversation is the same as ${base}.`;
    else return `New conversation vs ${base}: +${diff.added} −${diff.removed}`;
  };
  // Wide terminals get the two conversations side by side, with the selected line shown whole;
  // narrower ones the unified diff with every line wrapped.
  const sideBySide = columns >= SIDE_BY_SIDE_COLUMNS;
  const pairs = diff === undefined || 'problem' in diff || !sideBySide ? [] : diffPairs(diff);
  const selectedPair = Math.min(selected, Math.max(0, pairs.length - 1));
  const sideView = sideBySide ? sideBySideLines(pairs, selectedPair, columns, theme) : undefined;
  const lines: StyledLine[] = diff === undefined || 'problem' in diff ? [] : (sideView?.lines ?? diffStyledLines(diff, columns, theme));
  const messageLines = message === undefined ? [] : wrapText(message, columns).slice(0, 3);
  // The heading is shown with the line position after it (` 1-14/29`), which can take it onto one
  // more line: its rows are counted with the longest position it can have.
  const longestPosition = lines.length === 0 ? '' : ` ${lines.length}-${lines.length}/${lines.length}`;
  const headingRows = Math.min(3, wrapText(`${headingOf()}${longestPosition}`, columns).length);
  const rows = Math.max(1, bodyRows - PANEL_HEADER_ROWS - (headingRows - 1) - messageLines.length);
  const scrollTo = (next: number) => setOffset(Math.max(0, Math.min(next, maxOffset(lines.length, rows))));
  // Side by side, ↑↓ move the selection and the window follows it.
  const select = (next: number) => {
    if (!sideView) return;
    const index = Math.max(0, Math.min(pairs.length - 1, next));
    setSelected(index);
    // The selected pair grows when it is shown whole: keep its first line in view, and as much of it as fits.
    const expanded = sideBySideLines(pairs, index, columns, theme);
    const end = (expanded.starts[index + 1] ?? expanded.lines.length) - 1;
    if (expanded.starts[index]! < offset) setOffset(expanded.starts[index]!);
    else if (end >= offset + rows) setOffset(Math.max(0, Math.min(expanded.starts[index]!, end - rows + 1)));
  };

  useKeys(
    (input, key) => {
      // Esc is back everywhere (here: to the scenario); q quits as on every screen.
      if (key.escape) onClose();
      else if (input === 'q') navigation.quit();
      else if (input === 'r' && !revealed) setRevealed(true);
      else if (sideView && (key.downArrow || input === 'j')) select(selectedPair + 1);
      else if (sideView && (key.upArrow || input === 'k')) select(selectedPair - 1);
      else if (sideView && (key.pageDown || input === ' ')) select(selectedPair + rows);
      else if (sideView && key.pageUp) select(selectedPair - rows);
      else if (key.downArrow || input === 'j') scrollTo(offset + 1);
      else if (key.upArrow || input === 'k') scrollTo(offset - 1);
      else if (key.pageDown || input === ' ') scrollTo(offset + rows);
      else if (key.pageUp) scrollTo(offset - rows);
    },
    { isActive },
  );

  const heading = headingOf();
  const legend = !revealed
    ? 'Press r to reveal the diff on this screen (nothing is written or exported).'
    : sideBySide
      ? `recording left, new conversation right · changed words inverse · ↑↓ select a line (shown whole)${rerecording.accepted ? ' · accepted' : ''}`
      : `- only in the recording  + only in the new one  changed words inverse${rerecording.accepted ? ' · accepted' : ''}`;
  const position = lines.length > rows ? ` ${offset + 1}-${Math.min(lines.length, offset + rows)}/${lines.length}` : '';
  const headingLines = wrapText(`${heading}${position}`, columns).slice(0, 3);
  return (
    <Box flexDirection="column">
      {headingLines.map((line, index) => (
        <Text key={index} bold wrap="truncate-end">
          {line}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {legend}
      </Text>
      {messageLines.map((line, index) => (
        <Text key={`message-${index}`} wrap="truncate-end">
          {line}
        </Text>
      ))}
      <StyledLines lines={lines} offset={offset} rows={rows} />
    </Box>
  );
}
