/** A judge or cross-check rating that could not be made, as a session stores it. */
export interface RatingError {
  item_id: string;
  rater: 'judge' | 'cross_check';
  error: string;
}

/** Errors shown in full; the rest are counted (they are usually the same error item after item). */
const SHOWN = 2;

/**
 * The ratings of a judge session that could not be made, as one summary for `parley calibrate
 * judge` and `parley calibrate report`: how many, of how many items and per rater, the first
 * {@link SHOWN} in full (all of them when there is one more), and what to do. A replay with no
 * recording misses every rating: 25 items and two raters were 50 long lines that said the same.
 * `setPath` is the calibration folder as shown, for the command to run; `parley` how the person
 * runs Parley (`parley` or `npx parley`: see program/parley-command.ts).
 */
export function ratingErrorLines(errors: readonly RatingError[], setPath: string, parley = 'parley'): string[] {
  if (errors.length === 0) return [];
  const items = new Set(errors.map((error) => error.item_id)).size;
  const perRater = (['judge', 'cross_check'] as const)
    .map((rater) => [rater === 'judge' ? 'judge' : 'cross-check', errors.filter((error) => error.rater === rater).length] as const)
    .filter(([, count]) => count > 0)
    .map(([label, count]) => `${label} ${count}`);
  const misses = errors.filter((error) => error.error.startsWith('replay_miss:')).length;
  const lines = [
    `${errors.length} ${errors.length === 1 ? 'rating' : 'ratings'} could not be made (${items} ${items === 1 ? 'item' : 'items'}; ${perRater.join(', ')})` +
      (misses === 0 ? '' : misses === errors.length ? ': all replay misses' : `, ${misses} of them replay misses`),
  ];
  const shown = errors.length <= SHOWN + 1 ? errors : errors.slice(0, SHOWN);
  for (const error of shown) lines.push(`  ${error.item_id} (${error.rater === 'judge' ? 'judge' : 'cross-check'}): ${error.error}`);
  if (shown.length < errors.length) lines.push(`  … and ${errors.length - shown.length} more (\`--format json\` lists every one)`);
  if (misses > 0) {
    const dir = setPath === 'calibration' ? '' : ` --dir ${setPath}`;
    lines.push(
      `  to rate them: \`${parley} calibrate judge${dir} --mode record\` calls the judges live and writes the recording that replay reads, ` +
        `or \`--mode live\` rates without writing one`,
    );
  }
  return lines;
}
