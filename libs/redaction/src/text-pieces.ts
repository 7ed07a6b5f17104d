/**
 * Text during redaction is a list of pieces: `fixed` pieces were written or protected by a rule
 * (a placeholder, a masked phone number, a kept money amount) and no later rule touches them;
 * `free` pieces are still open to the rules that follow.
 */
export interface Piece {
  text: string;
  fixed: boolean;
  /** For a fixed piece: the text it stands for (what a rule replaced or kept). */
  source?: string;
  /** For a fixed piece: the name of the rule that fixed it. */
  rule?: string;
}

/** A placeholder written by a rule (`<name>`, `<email>`, `<secret>`, a suite's `<diagnosis>`). */
const PLACEHOLDER = /<[a-z][a-z0-9_]*>/g;

/** The text with every placeholder already in it fixed, so that no rule rewrites a placeholder. */
export function piecesOf(text: string): Piece[] {
  if (!text.includes('<')) return [{ text, fixed: false }];
  return splitMatches(text, new RegExp(PLACEHOLDER.source, 'g'), (match) => match[0]) ?? [{ text, fixed: false }];
}

export function joinPieces(pieces: readonly Piece[]): string {
  return pieces.length === 1 ? pieces[0]!.text : pieces.map((piece) => piece.text).join('');
}

/**
 * Applies `split` to every free piece and keeps the fixed ones as they are. `split` answers
 * undefined for a piece it leaves unchanged; when it changes none, the same list is returned
 * (most rules find nothing in most messages, and this is the redactor's hot loop).
 */
export function mapFreePieces(pieces: readonly Piece[], split: (text: string) => Piece[] | undefined): readonly Piece[] {
  let result: Piece[] | undefined;
  // An index loop: `entries()` made an iterator and an [index, piece] pair per piece, for every
  // rule and every text, the redactor's largest allocation.
  for (let index = 0; index < pieces.length; index += 1) {
    const piece = pieces[index]!;
    const replaced = piece.fixed || piece.text === '' ? undefined : split(piece.text);
    if (replaced === undefined) {
      result?.push(piece);
      continue;
    }
    result ??= pieces.slice(0, index);
    result.push(...replaced);
  }
  return result ?? pieces;
}

/** Splits `text` at `spans` (sorted, not overlapping): each span becomes a fixed `replacement`. */
export function splitSpans(text: string, spans: ReadonlyArray<{ start: number; end: number }>, replacement: string): Piece[] | undefined {
  if (spans.length === 0) return undefined;
  const pieces: Piece[] = [];
  let last = 0;
  for (const span of spans) {
    if (span.start > last) pieces.push({ text: text.slice(last, span.start), fixed: false });
    pieces.push({ text: replacement, fixed: true, source: text.slice(span.start, span.end) });
    last = span.end;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), fixed: false });
  return pieces;
}

/**
 * Splits `text` at the matches of a global `pattern`: each match becomes a fixed piece holding
 * what `replace` returns for it, or stays free when `replace` returns undefined. Empty matches
 * are skipped, so a pattern that can match nothing never loops. Undefined when nothing matched.
 */
export function splitMatches(text: string, pattern: RegExp, replace: (match: RegExpExecArray) => string | undefined): Piece[] | undefined {
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
    pieces.push({ text: replacement, fixed: true, source: match[0] });
    last = match.index + match[0].length;
  }
  if (pieces.length === 0) return undefined;
  if (last < text.length) pieces.push({ text: text.slice(last), fixed: false });
  return pieces;
}
