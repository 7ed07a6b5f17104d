/**
 * Joins the first few items of a list for a one-sentence reason and says how many were left out.
 *
 * @example listForReason(['a', 'b', 'c', 'd'], 2) === 'a, b (and 2 more)'
 */
export function listForReason(items: string[], shown = 3, separator = ', '): string {
  const hidden = items.length - shown;
  const head = items.slice(0, shown).join(separator);
  return hidden > 0 ? `${head} (and ${hidden} more)` : head;
}

/** `1 message`, `3 messages`. */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
