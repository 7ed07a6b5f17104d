import { useMemo } from 'react';
import { Box, Text } from 'ink';
import { currentItem, ratingProgress, type CalibrationRubric, type RatingSession } from '@parley/calibration';
import type { KeyHint } from '../components/footer.js';
import { keyListLines, screenKeyList } from '../components/key-list.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { useNavigation } from '../navigation.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from '../theme.js';
import { parleyOf, useServices } from '../tui-context.js';
import { AxisScores } from './axis-scores.js';
import { DoneView } from './done-view.js';
import { rubricLines, type RubricLine } from './rubric-lines.js';
import { RubricView } from './rubric-view.js';
import { transcriptLines, type TranscriptLine } from './transcript-lines.js';
import { TranscriptView } from './transcript-view.js';
import { ItemListView } from './item-list-view.js';
import { wrapText } from './wrap-text.js';
import { askToLeave, hasUnsavedWork, openItem, useRateSession, type RateLayout, type RateState, type RatingClash } from './use-rate-session.js';

export interface RateSessionSource {
  session: RatingSession;
  setFile: string;
  rubric: CalibrationRubric;
  /** Items each reviewer has rated as the set file says now (see `ratedPerReviewer`): read when the item list opens. */
  readReviewers(): Readonly<Record<string, number>>;
}

const RATE_KEYS: readonly KeyHint[] = [
  ['1-5', 'rate'],
  ['Tab ←→', 'axis'],
  ['↑↓ PgUp/Dn', 'scroll'],
  ['Enter', 'save'],
  ['s', 'skip'],
  ['u', 'undo'],
  ['n', 'note'],
  ['?', 'rubric'],
  ['[ ]', 'prev/next'],
  ['l', 'items'],
  ['q', 'quit'],
];

/** Keys of the rating screen only the full list (at the end of the rubric) has, or explains longer. */
const MORE_RATE_KEYS: readonly KeyHint[] = [
  ['?', 'the rubric, opened at the focused axis, with this list of keys at its end (? r or Esc goes back to rating)'],
  ['r', 'the rubric, as ?'],
  ['[ ]', 'previous / next item (rated ones too: Enter saves a new rating over yours)'],
  ['l', 'list of the items: yours rated, skipped, to do; / finds one by id'],
  ['Shift-Tab', 'previous axis'],
  ['Home End', 'top or end of the transcript'],
  ['Esc', 'leave the session (asks first if the item has unsaved scores)'],
];

/** Heading of the rating screen's keys at the end of the rubric. */
const KEYS_HEADING = 'Keys of the rating screen';

/** Rows of the rating body besides the transcript and the axes: item line, rule, note, message. */
const FIXED_ROWS = 4;

export function RateSessionView({ source }: { source: RateSessionSource }) {
  const services = useServices();
  const { clock } = services;
  const navigation = useNavigation();
  const { columns } = useTerminalSize();
  const bodyRows = useBodyRows();
  const axes = source.session.axes;
  const transcriptRows = Math.max(3, bodyRows - FIXED_ROWS - axes.length);
  // `?` opens the rubric, so every key of the screen is listed at its end.
  const rubric = useMemo(() => {
    const { lines, startOf } = rubricLines(source.rubric.text, columns);
    const keyList = keyListLines(screenKeyList(RATE_KEYS, MORE_RATE_KEYS, { depth: navigation.depth, backKeys: false }), columns);
    const keyLines = keyList.map((line): RubricLine => ({ text: `${line.key}${line.action}`, heading: false }));
    return { lines: [...lines, { text: '', heading: false }, { text: KEYS_HEADING, heading: true }, ...keyLines], startOf };
  }, [source.rubric.text, columns, navigation.depth]);

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
  const leave = (answered?: boolean) => (answered && navigation.depth === 0 ? navigation.quit() : navigation.back());
  const options = { setFile: source.setFile, rubricText: source.rubric.text, clock, leave, quit: navigation.quit };
  const { state, run } = useRateSession(source.session, layout, options);

  const { session } = state;
  const progress = ratingProgress(session);
  const item = currentItem(session);
  const status = `${progress.done} done · ${progress.toDo} to do${progress.skipped > 0 ? ` · ${progress.skipped} skipped` : ''}`;
  const title = `Rate · ${session.reviewer}`;

  if (state.mode === 'list') {
    return (
      <ItemListView
        session={session}
        readReviewers={source.readReviewers}
        onOpen={(index) => run((current) => openItem(current, index))}
        onClose={() => run((current) => ({ ...current, mode: 'rate' }))}
        onQuit={() => run((current) => askToLeave({ ...current, mode: 'rate' }, 'quit', options))}
      />
    );
  }

  if (state.mode === 'rubric') {
    return (
      <ScreenFrame
        title={`Rubric ${source.rubric.version}`}
        status={status}
        keys={[
          ['↑↓ PgUp/Dn', 'scroll'],
          ['End', 'all keys'],
          ['? r Esc', 'back to rating'],
        ]}
        backKeys={false}
        helpKey={false}
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
          ['l', 'items'],
          ['q', 'quit'],
        ]}
        backKeys={false}
        helpKey
      >
        <DoneView reviewer={session.reviewer} progress={progress} skipped={session.skipped} savedNow={session.saved.length} rows={bodyRows} parley={parleyOf(services)} />
        {state.message ? <Message message={state.message} /> : null}
      </ScreenFrame>
    );
  }

  const lines = measure(state);
  const typing = state.mode === 'note' || state.mode === 'skip';
  const clash = state.mode === 'conflict' ? state.clash : undefined;
  // A message that does not fit one row (why a save failed: every problem of a broken set, each
  // with its file:line:column) is shown whole, wrapped; the transcript gives up the rows it takes.
  const messageLines = state.mode === 'rate' && state.message ? messageRows(state.message.text, columns, transcriptRows) : [];
  // The question about a rating saved in another session takes two more rows.
  const shownRows = clash ? Math.max(1, transcriptRows - 2) : Math.max(1, transcriptRows - Math.max(0, messageLines.length - 1));
  const keys: readonly KeyHint[] = clash
    ? [
        ['o', 'save yours over it'],
        ['k', 'keep that one'],
        ['Esc', 'back to the item'],
      ]
    : state.mode === 'leave'
      ? [
          ['y', typeof state.leaving === 'object' ? 'drop them and go' : 'leave without saving'],
          ['n Esc', 'keep rating'],
        ]
      : typing
        ? [
            ['Enter', state.mode === 'note' ? 'keep note' : 'skip item'],
            ['Esc', 'cancel'],
          ]
        : RATE_KEYS;
  return (
    <ScreenFrame
      title={title}
      status={status}
      keys={keys}
      backKeys={false}
      helpKey={false}
      {...(hasUnsavedWork(state) ? { unsaved: `${item.id} has scores that are not saved` } : {})}
    >
      <ItemLine id={item.id} details={[item.language, item.vertical, item.source]} lines={lines.length} offset={state.scroll} rows={shownRows} />
      <TranscriptView lines={lines} offset={state.scroll} rows={shownRows} />
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
      ) : clash ? (
        <ClashQuestion clash={clash} reviewer={session.reviewer} axes={axes} />
      ) : state.mode === 'leave' ? (
        <Message message={{ text: typeof state.leaving === 'object' ? `${item.id} has scores that are not saved: drop them and move on? y/n` : `${item.id} has scores that are not saved: leave anyway and drop them? y/n`, error: true }} />
      ) : state.message ? (
        <Message message={{ ...state.message, text: messageLines.join('\n') }} />
      ) : (
        <Text dimColor wrap="truncate-end">
          {item.own ? 'you rated this item: Enter saves changed scores over your rating' : '4 5 3 Enter rates the three axes and saves; ? shows the rubric'}
        </Text>
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

/** Both ratings of the item, and the question which to keep: nothing is written before the answer. */
function ClashQuestion({ clash, reviewer, axes }: { clash: RatingClash; reviewer: string; axes: readonly string[] }) {
  const theme = useTheme();
  const scores = (rating: { scores: Readonly<Record<string, number>>; note?: string }) =>
    `${axes.map((axis) => rating.scores[axis] ?? '·').join(' ')}${rating.note ? ` "${rating.note}"` : ''}`;
  const when = clash.theirs ? clash.theirs.ratedAt.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC') : '';
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end" bold color={theme.paint('yellow')}>
        {`not saved: another session of ${reviewer} ${clash.theirs ? 'saved' : 'took back the rating of'} ${clash.itemId} meanwhile`}
      </Text>
      <Text wrap="truncate-end">{`${clash.theirs ? `that one: ${scores(clash.theirs)} (${when}) · ` : ''}this session's: ${scores(clash.mine)}`}</Text>
      <Text wrap="truncate-end" dimColor>
        o saves this session&apos;s rating over it · k keeps that one · Esc back to the item
      </Text>
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

/**
 * The message's lines wrapped to the terminal, at most as many as leave the transcript one row
 * (the last one marked … when more were cut).
 */
function messageRows(text: string, columns: number, transcriptRows: number): string[] {
  const lines = wrapText(text, columns, 2);
  const room = Math.max(1, transcriptRows);
  if (lines.length <= room) return lines;
  const shown = lines.slice(0, room);
  const last = shown[room - 1]!;
  shown[room - 1] = `${Array.from(last).slice(0, Math.max(0, columns - 1)).join('')}…`;
  return shown;
}

function Message({ message }: { message: { text: string; error: boolean } }) {
  const theme = useTheme();
  return (
    <Text wrap="truncate" bold={message.error} color={theme.paint(message.error ? 'red' : 'green')}>
      {message.text}
    </Text>
  );
}
