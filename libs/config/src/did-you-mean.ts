/**
 * Suggestions for misspelt names (keys, agents, metrics), so an error can say what was probably
 * meant instead of only that something is unknown.
 */

/** Largest edit distance still suggested: two slips of the finger, not a different word. */
const MAX_SUGGESTED_DISTANCE = 2;

/** A prefix shorter than this says nothing: `m` is a prefix of too many names. */
const MIN_SHARED_PREFIX = 3;

/**
 * Edit distance counting insertions, deletions, substitutions and swaps of two neighbouring
 * characters (optimal string alignment), the slips people make when typing names.
 *
 * @example damerauLevenshtein('treshold', 'threshold') === 1
 */
export function damerauLevenshtein(left: string, right: string): number {
  const rows = left.length + 1;
  const columns = right.length + 1;
  const distances: number[][] = Array.from({ length: rows }, () => new Array<number>(columns).fill(0));
  for (let row = 0; row < rows; row++) distances[row]![0] = row;
  for (let column = 0; column < columns; column++) distances[0]![column] = column;
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const substitutionCost = left[row - 1] === right[column - 1] ? 0 : 1;
      let best = Math.min(
        distances[row - 1]![column]! + 1,
        distances[row]![column - 1]! + 1,
        distances[row - 1]![column - 1]! + substitutionCost,
      );
      const swapped = row > 1 && column > 1 && left[row - 1] === right[column - 2] && left[row - 2] === right[column - 1];
      if (swapped) best = Math.min(best, distances[row - 2]![column - 2]! + 1);
      distances[row]![column] = best;
    }
  }
  return distances[rows - 1]![columns - 1]!;
}

/**
 * The candidate the user most probably meant by `input`, or undefined when none is close:
 * within two edits (case-insensitive), or one being a prefix of the other (`max` → `max_drop`).
 * The closest candidate wins; ties go to the earlier candidate.
 *
 * @example closestMatch('treshold', ['metric', 'threshold']) === 'threshold'
 */
export function closestMatch(input: string, candidates: Iterable<string>): string | undefined {
  const needle = input.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    const hay = candidate.toLowerCase();
    const distance = damerauLevenshtein(needle, hay);
    const sharesPrefix =
      Math.min(needle.length, hay.length) >= MIN_SHARED_PREFIX && (hay.startsWith(needle) || needle.startsWith(hay));
    if (distance > MAX_SUGGESTED_DISTANCE && !sharesPrefix) continue;
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  return best?.candidate;
}

/** ` (did you mean "x"?)` when a candidate is close, else the empty string: ready to append to a message. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const match = closestMatch(input, candidates);
  return match === undefined ? '' : ` (did you mean "${match}"?)`;
}
