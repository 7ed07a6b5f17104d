/**
 * A case id cut to at most `width` characters for a column. A variant's values (`[lang=zu,…]`)
 * and a compared agent (`@booking_v2`) are what tell one case of a scenario from the next, so a
 * cut takes the middle and keeps that end; a plain scenario id (or a column too narrow for a
 * middle cut) loses its end. An ellipsis marks a cut. The TUI's lists and the console summary use it.
 *
 * @example shortenCaseId('book_massage[lang=zu,persona=rushed]', 26) // 'boo…ang=zu,persona=rushed]'
 */
export function shortenCaseId(id: string, width: number): string {
  const characters = Array.from(id);
  if (characters.length <= width) return id;
  const tailStart = Array.from(id.slice(0, Math.max(0, id.search(/[[@]/)))).length;
  if (tailStart === 0 || width < 8) return width <= 1 ? characters.slice(0, Math.max(0, width)).join('') : `${characters.slice(0, width - 1).join('')}…`;
  const head = Math.max(3, width - 1 - (characters.length - tailStart));
  return `${characters.slice(0, head).join('')}…${characters.slice(characters.length - (width - 1 - head)).join('')}`;
}
