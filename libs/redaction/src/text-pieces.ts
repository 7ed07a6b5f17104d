/**
 * Text during redaction is a list of pieces: `fixed` pieces were written or protected by a rule
 * (a placeholder, a masked phone number, a kept money amount) and no later rule touches them;
 * `free` pieces are still open to the rules that follow.
 */
export interface Piece {
  text: string;
  fixed: boolean;
}

/** A placeholder written by a rule (`<name>`, `<email>`, `<secret>`, a suite's `<diagnosis>`). */
export const PLACEHOLDER = /<[a-z][a-z0-9_]*>/g;

/** The text with every placeholder already in it fixed, so that no rule rewrites a placeholder. */
export function piecesOf(text: string): Piece[] {
  return splitMatches(text, new RegExp(PLACEHOLDER.source, 'g'), (match) => match[0]);
}

export function joinPieces(pieces: readonly Piece[]): string {
  return pieces.map((piece) => piece.text).join('');
}

/** Applies `split` to every free piece and keeps the fixed ones as they are. */
export function mapFreePieces(pieces: readonly Piece[], split: (text: string) => Piece[]): Piece[] {
  const result: Piece[] = [];
  for (const piece of pieces) {
    if (piece.fixed || piece.text === '') result.push(piece);
    else result.push(...split(piece.text));
  }
  return result;
}

/**
 * Splits `text` at the matches of a global `pattern`: each match becomes a fixed piece holding
 * what `replace` returns for it, or stays free when `replace` returns undefined. Empty matches
 * are skipped, so a pattern that can match nothing never loops.
 */
export function splitMatches(text: string, pattern: RegExp, replace: (match: RegExpExecArray) => string | undefined): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0] === '') {
      pattern.lastIndex += 1;
      continue;
    }
    const replacement = replace(match);
    if (replacement === undefined) continue;
    if (match.index > last) pieces.push({ text: text.slice(last, match.index), fixed: false });
    pieces.push({ text: replacement, fixed: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), fixed: false });
  return pieces;
}
