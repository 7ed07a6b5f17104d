/**
 * A word as a POSIX shell would need it typed: unchanged when it has only safe characters,
 * single-quoted otherwise. For commands Parley prints for the user to copy.
 *
 * @example shellWord('examples/booking') === 'examples/booking'
 * @example shellWord("my suite") === "'my suite'"
 */
export function shellWord(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_./:=@%+,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
