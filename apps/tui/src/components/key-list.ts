import { wrapText } from '../rate/wrap-text.js';
import type { KeyHint } from './footer.js';

/** One line of a key list: the key column (blank under a wrapped explanation) and its text. */
export interface KeyListLine {
  key: string;
  action: string;
}

/**
 * Every key of a screen: the footer's keys with the longer explanations of `moreKeys` in their
 * place (a key in both is listed once, explained the longer way), the keys only `moreKeys` lists,
 * then the keys every screen shares that the screen does not list itself.
 */
export function screenKeyList(keys: readonly KeyHint[], moreKeys: readonly KeyHint[], { depth, backKeys }: { depth: number; backKeys: boolean }): KeyHint[] {
  const longer = new Map(moreKeys.map(([key, action]) => [key, action]));
  const own = [...keys.map(([key, action]): KeyHint => [key, longer.get(key) ?? action]), ...moreKeys.filter(([key]) => !keys.some(([listed]) => listed === key))];
  const shared: KeyHint[] = [
    ['?', 'this list of keys (? or Esc closes it)'],
    ...(backKeys || depth > 0 ? [['Esc', depth === 0 ? 'quit, after asking (nothing to go back to)' : 'back to the previous screen'] as KeyHint] : []),
    ['q', 'quit parley tui (asks first when something is unsaved)'],
    ['Ctrl-C', 'quit at once'],
  ];
  // A key the screen lists itself (the rating screen's q) is not listed again among the shared ones.
  return [...own, ...shared.filter(([key]) => !own.some(([listed]) => listed === key))];
}

/**
 * The keys one per line, `columns` wide: two spaces, the key padded to a column, two spaces, the
 * explanation, which wraps under itself rather than losing its end (the kappa columns' are long).
 * A key wider than the column (`PgUp PgDn Home End`) has a line of its own, its explanation below
 * in the column, so that no explanation is pushed out of line.
 */
export function keyListLines(keys: readonly KeyHint[], columns: number): KeyListLine[] {
  const width = Math.min(16, Math.max(...keys.map(([key]) => Array.from(key).length)));
  const actionWidth = Math.max(10, columns - width - 5);
  const blank = ' '.repeat(width + 2);
  return keys.flatMap(([key, action]) => {
    const wide = Array.from(key).length > width;
    const lines = wrapText(action, actionWidth).map((line, index) => ({ key: index === 0 && !wide ? `  ${key.padEnd(width)}` : blank, action: `  ${line}` }));
    return wide ? [{ key: `  ${key}`, action: '' }, ...lines] : lines;
  });
}
