import { useEffect } from 'react';
import type { ListCursor } from '../components/use-list-cursor.js';

/** Cursor positions of lists the user left for a screen above them, for the life of the process. */
const positions = new Map<string, number>();

/**
 * Puts a list's cursor back where it was when the user comes back to the screen (the navigation
 * stack unmounts the screens under the current one): going through a run's failures one after
 * the other then never starts again from the top.
 */
export function useRememberedCursor(key: string, cursor: ListCursor): void {
  useEffect(() => {
    const saved = positions.get(key);
    if (saved !== undefined) cursor.setIndex(saved);
    // Only when the list first shows (cursor.setIndex is a new function on every render).
  }, [key]);
  useEffect(() => {
    positions.set(key, cursor.index);
  }, [key, cursor.index]);
}
