import { useEffect, useRef, useState } from 'react';
import { useKeys } from './keyboard.js';

export interface ListCursor {
  /** Index of the highlighted row (0 when the list is empty). */
  index: number;
  /** First row shown: the window scrolls to keep the cursor visible. */
  offset: number;
  setIndex(index: number): void;
}

/**
 * Up/down (and k/j), PgUp/PgDn, Home/End (and g/G) over `count` rows of which `visible` fit on screen.
 * Screens render rows `offset … offset + visible` and highlight `index`. When `filter` (the text of
 * the list's `/` filter) changes, the cursor goes to the first row: the first match, so that
 * `/codeswitch Enter Enter` opens what was matched, not the row that had the old position.
 */
export function useListCursor(count: number, visible: number, options: { isActive?: boolean; filter?: string } = {}): ListCursor {
  const [index, setRawIndex] = useState(0);
  const [offset, setOffset] = useState(0);
  const window = Math.max(1, visible);
  const setIndex = (wanted: number) => {
    const next = Math.max(0, Math.min(count - 1, wanted));
    setRawIndex(next);
    setOffset((current) => (next < current ? next : next >= current + window ? next - window + 1 : current));
  };
  useKeys(
    (input, key) => {
      if (key.upArrow || input === 'k') setIndex(index - 1);
      else if (key.downArrow || input === 'j') setIndex(index + 1);
      else if (key.pageUp) setIndex(index - window);
      else if (key.pageDown) setIndex(index + window);
      else if (key.home || input === 'g') setIndex(0);
      else if (key.end || input === 'G') setIndex(count - 1);
    },
    { isActive: options.isActive ?? true },
  );
  const filter = options.filter ?? '';
  const lastFilter = useRef(filter);
  useEffect(() => {
    if (lastFilter.current === filter) return;
    lastFilter.current = filter;
    setRawIndex(0);
    setOffset(0);
  }, [filter]);
  const safeIndex = Math.max(0, Math.min(index, count - 1));
  const safeOffset = Math.max(0, Math.min(offset, Math.max(0, count - window)));
  return { index: count === 0 ? 0 : safeIndex, offset: safeOffset, setIndex };
}
