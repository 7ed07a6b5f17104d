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
 * line in inverse video, scrollable; Esc closes it, q quits. The diff itself is
 * `diffConversations` of @parley/providers.
 */
export function DiffPanel({ rerecording, suiteDir, againstReplaced, metadataOnly, isActive, onClose, message }: DiffPanelProps) {
  const theme = useTheme();
  const navigation = useNavigation();
  const bodyRows = useBodyRows();
  const [revealed, setRevealed] = useState(!metadataOnly);
  const [diff, setDiff] = useState<ConversationDiff | { problem: string } | undefined>(undefined);
  const [offset, setOffset] = useState(0);

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
  const lines: StyledLine[] = diff === undefined || 'problem' in diff ? [] : diffStyledLines(diff, columns, theme);
  const messageLines = message === undefined ? [] : wrapText(message, columns).slice(0, 3);
  const headingRows = Math.min(3, wrapText(headingOf(), columns).length);
  const rows = Math.max(1, bodyRows - PANEL_HEADER_ROWS - (headingRows - 1) - messageLines.length);
  const scrollTo = (next: number) => setOffset(Math.max(0, Math.min(next, maxOffset(lines.length, rows))));

  useKeys(
    (input, key) => {
      // Esc is back everywhere (here: to the scenario); q quits as on every screen.
      if (key.escape) onClose();
      else if (input === 'q') navigation.quit();
      else if (input === 'r' && !revealed) setRevealed(true);
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
