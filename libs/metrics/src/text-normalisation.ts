/**
 * The form in which content signals are compared: NFKC (so full-width letters, ligatures and
 * non-breaking spaces match their plain forms), lower-case, and whitespace runs collapsed to one
 * space (so `0800 150 150` matches across a line break or a double space).
 *
 * @example normaliseText('Ｂｏｏｋｅｄ\u00a0 BK-1042\n') === 'booked bk-1042'
 */
export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}
