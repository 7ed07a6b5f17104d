import { useEffect, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import { FilterLine } from '../components/filter-line.js';
import { ListRow } from '../components/list-row.js';
import { ratingProgress, type RatingSession, type RatingSessionItem } from '@parley/calibration';
import { matchesQuery } from '../components/filter-query.js';
import type { KeyHint } from '../components/footer.js';
import { useKeys } from '../components/keyboard.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { useFilter } from '../components/use-filter.js';
import { useListCursor } from '../components/use-list-cursor.js';
import { fit } from '../kappa/kappa-cells.js';

/** Body rows around the list: progress line, column header. */
const CHROME_ROWS = 2;

const COLUMNS = { id: 22, state: 8, scores: 8, language: 4 } as const;

export interface ItemListProps {
  session: RatingSession;
  /**
   * Items each reviewer has rated, read from the set file now: other reviewers rate in their own
   * sessions meanwhile, so the list reads the counts each time it opens (this reviewer's own count
   * comes from the session).
   */
  readReviewers(): Readonly<Record<string, number>>;
  /** Opens the item at this index of `session.items` for rating (or revising). */
  onOpen(index: number): void;
  onClose(): void;
  onQuit(): void;
}

/**
 * `l` on the rating screen: every item of the set in the reviewer's order, with this reviewer's own
 * scores (never anyone else's), skipped or still to do; how many items each reviewer has rated.
 * `/` filters (an id jumps to that item), Enter opens the item to rate it or revise its rating.
 */
export function ItemListView({ session, readReviewers, onOpen, onClose, onQuit }: ItemListProps) {
  const [reviewers] = useState(readReviewers);
  const bodyRows = useBodyRows();
  const filter = useFilter();
  const skipped = new Map(session.skipped.map((entry) => [entry.id, entry.reason]));
  const all = session.items.map((item, index) => ({ item, index, state: stateOf(item, skipped) }));
  const rows = filter.text === '' ? all : all.filter((row) => matchesQuery(fieldsOf(row.item, row.state, skipped.get(row.item.id)), filter.text));
  const filterRows = filter.editing || filter.text !== '' ? 1 : 0;
  const visible = Math.max(1, bodyRows - CHROME_ROWS - filterRows);
  const cursor = useListCursor(rows.length, visible, { isActive: !filter.editing, filter: filter.text });
  // The list opens at the item the rating screen showed.
  const start = session.position;
  useEffect(() => cursor.setIndex(start), [start]);
  const selected = rows[cursor.index];

  // Enter on a filter that leaves one item (Esc clears the text instead) opens it: typing an id
  // jumps to that item. The filter takes every key while it is typed, so this watches it end.
  const wasEditing = useRef(false);
  const only = rows.length === 1 ? rows[0]!.index : undefined;
  useEffect(() => {
    if (wasEditing.current && !filter.editing && filter.text !== '' && only !== undefined) onOpen(only);
    wasEditing.current = filter.editing;
  }, [filter.editing, filter.text, only, onOpen]);

  useKeys((input, key) => {
    if (filter.editing) return;
    if (key.return && selected) onOpen(selected.index);
    else if (key.escape && !filter.holdsEscape) onClose();
    else if (input === 'q') onQuit();
    else if (input === 'l') onClose();
  });

  const progress = ratingProgress(session);
  const counts = { ...reviewers, [session.reviewer]: progress.done };
  const perReviewer = Object.keys(counts)
    .sort()
    .map((name) => `${name} ${counts[name]}`)
    .join(' · ');
  const keys: KeyHint[] = filter.editing
    ? [
        ['Enter', rows.length === 1 ? 'open item' : 'keep filter'],
        ['Esc', 'clear'],
      ]
    : [['↑↓', 'move'], ['Enter', 'open'], ['/', 'filter'], filter.text !== '' ? ['Esc', 'clear filter'] : ['l Esc', 'back to rating'], ['q', 'quit']];
  const moreKeys: KeyHint[] = [
    ['g G', 'first / last item'],
    ['/ text', 'only items with text in id, state, language, vertical, source or skip reason (state:skipped)'],
    ['/ ID Enter', 'open the item with that id'],
  ];
  return (
    <ScreenFrame
      title={`Items · ${session.reviewer}`}
      status={`${progress.done} rated · ${progress.skipped} skipped · ${progress.toDo - progress.skipped} to do`}
      keys={keys}
      moreKeys={moreKeys}
      backKeys={false}
      helpKey={!filter.editing}
    >
      <Text wrap="truncate-end" dimColor>{`rated per reviewer (of ${progress.total}): ${perReviewer}`}</Text>
      <FilterLine filter={filter} count={rows.length} />
      <Text bold>{`  ${fit('item', COLUMNS.id)} ${fit('state', COLUMNS.state)} ${fit('yours', COLUMNS.scores)} ${fit('lang', COLUMNS.language)} source / skip reason`}</Text>
      {rows.length === 0 ? (
        <Text>No item matches the filter; Esc clears it.</Text>
      ) : (
        <Box flexDirection="column">
          {rows.slice(cursor.offset, cursor.offset + visible).map((row, position) => {
            const current = cursor.offset + position === cursor.index;
            const scores = row.item.own ? session.axes.map((axis) => row.item.own?.scores[axis] ?? '·').join(' ') : '';
            const reason = skipped.get(row.item.id);
            return (
              <ListRow key={row.item.id} selected={current} bold={row.index === session.position}>
                {fit(row.item.id, COLUMNS.id)} {fit(row.state, COLUMNS.state)} {fit(scores, COLUMNS.scores)} {fit(row.item.language, COLUMNS.language)}{' '}
                {reason ? `skipped: ${reason}` : row.item.source}
              </ListRow>
            );
          })}
        </Box>
      )}
    </ScreenFrame>
  );
}

type ItemState = 'rated' | 'skipped' | 'to do';

function stateOf(item: RatingSessionItem, skipped: ReadonlyMap<string, string>): ItemState {
  if (item.own) return 'rated';
  return skipped.has(item.id) ? 'skipped' : 'to do';
}

/** What `/` searches in an item. */
function fieldsOf(item: RatingSessionItem, state: ItemState, reason: string | undefined): Record<string, string | undefined> {
  return { id: item.id, state, language: item.language, vertical: item.vertical, source: item.source, reason };
}
