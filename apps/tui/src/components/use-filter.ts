import { useEffect, useState } from 'react';
import { useKeys } from './keyboard.js';

export interface Filter {
  /** What was typed after `/` (kept after Enter until Esc clears it). */
  text: string;
  /** Whether keys are being typed into the filter now. */
  editing: boolean;
  /** Whether the filter takes Esc (editing, or a filter is set): the screen's back key waits. */
  holdsEscape: boolean;
}

/** Filters of lists the user left for a screen above them (by `rememberAs`), for the life of the process. */
const remembered = new Map<string, string>();

/**
 * The `/` filter of a list screen: `/` starts typing, Enter keeps the filter and gives the keys
 * back to the list, Esc clears it (a second Esc then goes back as usual). With `rememberAs` the
 * filter is still there when the user comes back from a screen opened from the list.
 */
export function useFilter(options: { isActive?: boolean; rememberAs?: string } = {}): Filter {
  const { rememberAs } = options;
  const [text, setText] = useState(() => (rememberAs === undefined ? '' : (remembered.get(rememberAs) ?? '')));
  useEffect(() => {
    if (rememberAs !== undefined) remembered.set(rememberAs, text);
  }, [rememberAs, text]);
  const [editing, setEditing] = useState(false);
  const isActive = options.isActive ?? true;
  useKeys(
    (input, key) => {
      if (editing) {
        if (key.return) setEditing(false);
        else if (key.escape) {
          setText('');
          setEditing(false);
        } else if (key.backspace || key.delete) setText((current) => Array.from(current).slice(0, -1).join(''));
        else if (!key.ctrl && !key.meta) setText((current) => current + printable(input));
        return;
      }
      // `/` and what follows it may arrive in one read (a paste, a fast typist).
      if (input.startsWith('/') && !key.ctrl && !key.meta) {
        setEditing(true);
        setText(printable(input.slice(1)));
      } else if (key.escape && text !== '') setText('');
    },
    { isActive, exclusive: editing },
  );
  return { text, editing, holdsEscape: editing || text !== '' };
}

/** The typed characters of `input`, without control characters (a newline pasted with the text). */
function printable(input: string): string {
  return Array.from(input)
    .filter((character) => character >= ' ' && character !== '\u007F')
    .join('');
}
