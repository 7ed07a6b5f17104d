import { Text } from 'ink';
import type { Filter } from './use-filter.js';

/**
 * The `/` filter's line above a list: what is typed (with a cursor while typing), then how many
 * rows match (`matches`: the text after it, default `N match(es)`). Nothing when no filter is set.
 */
export function FilterLine({ filter, count, matches }: { filter: Filter; count: number; matches?: string }) {
  if (!filter.editing && filter.text === '') return null;
  return (
    <Text wrap="truncate-start">
      <Text bold>filter&gt; </Text>
      {filter.text}
      {filter.editing ? <Text inverse> </Text> : <Text dimColor>{`  (${matches ?? `${count} match${count === 1 ? '' : 'es'}`})`}</Text>}
    </Text>
  );
}
