import type { ReactNode } from 'react';
import { Text } from 'ink';

/** What marks the selected row of a list, before its first column (two cells wide). */
const SELECTION_MARK = '> ';

/**
 * One row of a list, the selected one marked the same way on every screen: `> ` before it and
 * inverse video (both readable without colour). Cut at the screen's edge, never wrapped.
 */
export function ListRow({ selected, bold, children }: { selected: boolean; bold?: boolean; children: ReactNode }) {
  return (
    <Text inverse={selected} bold={bold ?? false} wrap="truncate-end">
      {selected ? SELECTION_MARK : '  '}
      {children}
    </Text>
  );
}
