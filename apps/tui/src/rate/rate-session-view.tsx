import { useMemo } from 'react';
import { Box, Text } from 'ink';
import { currentItem, ratingProgress, type CalibrationRubric, type RatingSession } from '@parley/calibration';
import type { KeyHint } from '../components/footer.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { useNavigation } from '../navigation.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from '../theme.js';
import { useServices } from '../tui-context.js';
import { AxisScores } from './axis-scores.js';
import { DoneView } from './done-view.js';
import { rubricLines } from './rubric-lines.js';
import { RubricView } from './rubric-view.js';
import { transcriptLines, type TranscriptLine } from './transcript-lines.js';
import { TranscriptView } from './transcript-view.js';
import { useRateSession, type RateLayout, type RateState } from './use-rate-session.js';

export interface RateSessionSource {
  session: RatingSession;
  setFile: string;
  rubric: CalibrationRubric;
}

const RATE_KEYS: readonly KeyHint[] = [
  ['1-5', 'rate'],
  ['Tab ←→', 'axis'],
  ['↑↓ PgUp/Dn', 'scroll'],
  ['Enter', 'save'],
  ['s', 'skip'],
  ['u', 'undo'],
  ['n', 'note'],
  ['r', 'rubric'],
  ['q', 'quit'],
];

/** Keys of the rating screen only the overlay (`?`) lists. */
const MORE_RATE_KEYS: readonly KeyHint[] = [
  ['Shift-Tab', 'previous axis'],
  ['Home End', 'top or end of the transcript'],
  ['Esc', 'leave the session (asks first if the item has unsaved scores)'],
];

/** Rows of the rating body besides the transcript and the axes: item line, rule, note, message. */
const FIXED_ROWS = 4;

export function RateSessionView({ source }: { source: RateSessionSource }) {
  const { clock } = useServices();
  const navigation = useNavigation();
  const { columns } = useTerminalSize();
  const bodyRows = useBodyRows();
  const axes = source.session.axes;
  const transcriptRows = Math.max(3, bodyRows - FIXED_ROWS - axes.length);
  const rubric = useMemo(() => rubricLines(source.rubric.text, columns), [source.rubric.text, columns]);

  const linesOf = useMemo(() => new Map<string, TranscriptLine[]>(), [columns]);
  const measure = (state: RateState): TranscriptLine[] => {
    const item = currentItem(state.session);
    if (!item) return [];
    let lines = linesOf.get(item.id);
    if (!lines) {
      lines = transcriptLines(item.transcript, columns);
      linesOf.set(item.id, lines);
    }
    return lines;
  };
  const layout: RateLayout = {
    transcriptLines: (state) => measure(state).length,
    transcriptRows,
    rubricLines: rubric.lines.length,
    rubricRows: bodyRows,
    rubricLineOf: rubric.startOf,
  };
  const state = useRateSession(source.session, layout, { setFile: source.setFile, rubricText: source.rubric.text, clock, leave: navigation.back, quit: navigation.quit });

  const { session } = state;
  const progress = ratingProgress(session);
  const item = currentItem(session);
  const status = `${progress.done} done · ${progress.toDo} to do${progress.skipped > 0 ? ` · ${progress.skipped} skipped` : ''}`;
  const title = `Rate · ${session.reviewer}`;

  if (state.mode === 'rubric') {
    return (
      <ScreenFrame
        title={`Rubric ${source.rubric.version}`}
        status={status}
        keys={[
          ['↑↓ PgUp/Dn', 'scroll'],
          ['r Esc', 'back to rating'],
        ]}
        backKeys={false}
        helpKey
      >
        <RubricView lines={rubric.lines} offset={state.rubricScroll} rows={bodyRows} />
      </ScreenFrame>
    );
  }

  if (!item) {
    return (
      <ScreenFrame
        title={title}
        status={status}
        keys={[
          ['u', 'undo last'],
          ['q', 'quit'],
        ]}
        backKeys={false}
        helpKey
      >
        <DoneView reviewer={session.reviewer} progress={progress} skipped={session.skipped} savedNow={session.saved.length} rows={bodyRows} />
        {state.message ? <Message message={state.message} /> : null}
      </ScreenFrame>
    );
  }

  const lines = measure(state);
  const typing = state.mode === 'note' || state.mode === 'skip';
  const keys: readonly KeyHint[] =
    state.mode === 'leave'
      ? [
          ['y', 'leave without saving'],
          ['n Esc', 'keep rating'],
        ]
      : typing
        ? [
            ['Enter', state.mode === 'note' ? 'keep note' : 'skip item'],
            ['Esc', 'cancel'],
          ]
        : RATE_KEYS;
  return (
    <ScreenFrame title={title} status={status} keys={keys} moreKeys={MORE_RATE_KEYS} backKeys={false} helpKey={state.mode === 'rate'}>
      <ItemLine id={item.id} details={[item.language, item.vertical, item.source]} lines={lines.length} offset={state.scroll} rows={transcriptRows} />
      <TranscriptView lines={lines} offset={state.scroll} rows={transcriptRows} />
      <Text dimColor>{'─'.repeat(columns)}</Text>
      <AxisScores axes={axes} scores={state.scores} focus={state.focus} />
      {state.mode === 'note' ? (
        <Input label="note" text={state.draft} />
      ) : (
        <Text wrap="truncate" dimColor={state.note === ''}>
          {state.note === '' ? 'note: none (n adds one)' : `note: ${state.note}`}
        </Text>
      )}
      {state.mode === 'skip' ? (
        <Input label="skip reason (optional)" text={state.draft} />
      ) : state.mode === 'leave' ? (
        <Message message={{ text: `${item.id} has scores that are not saved: leave anyway and drop them? y/n`, error: true }} />
      ) : state.message ? (
        <Message message={state.message} />
      ) : (
        <Text dimColor>4 5 3 Enter rates the three axes and saves; r shows the rubric</Text>
      )}
    </ScreenFrame>
  );
}

function ItemLine({ id, details, lines, offset, rows }: { id: string; details: readonly (string | undefined)[]; lines: number; offset: number; rows: number }) {
  const shown = lines <= rows ? `${lines} lines` : `lines ${offset + 1}–${Math.min(lines, offset + rows)} of ${lines} ↑↓`;
  return (
    <Box justifyContent="space-between">
      <Text bold wrap="truncate">
        {[id, ...details.filter((detail): detail is string => detail !== undefined)].join(' · ')}
      </Text>
      <Text dimColor>{shown}</Text>
    </Box>
  );
}

function Input({ label, text }: { label: string; text: string }) {
  return (
    <Text wrap="truncate-start">
      <Text bold>{`${label}> `}</Text>
      {text}
      <Text inverse> </Text>
    </Text>
  );
}

function Message({ message }: { message: { text: string; error: boolean } }) {
  const theme = useTheme();
  return (
    <Text wrap="truncate" bold={message.error} color={theme.paint(message.error ? 'red' : 'green')}>
      {message.text}
    </Text>
  );
}
