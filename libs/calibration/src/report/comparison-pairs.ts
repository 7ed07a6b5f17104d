import type { CalibrationItem } from '@parley/config';
import type { RatingPair } from '../statistics/rating-labels.js';

/** The four comparisons of the calibration report, in report order (docs/calibration.md). */
export type ComparisonId = 'judge_vs_human' | 'cross_check_vs_human' | 'judge_vs_cross_check' | 'human_vs_human';

export const COMPARISONS: ReadonlyArray<{ id: ComparisonId; label: string }> = [
  { id: 'judge_vs_human', label: 'judge vs human' },
  { id: 'cross_check_vs_human', label: 'cross-check vs human' },
  { id: 'judge_vs_cross_check', label: 'judge vs cross-check' },
  { id: 'human_vs_human', label: 'human vs human' },
];

/** The axis name of the pooled rows: every axis's pairs together. */
export const OVERALL = 'overall';

/** Scores per item id (a model's ratings), axis → 1–5. */
export type ScoresByItem = ReadonlyMap<string, Readonly<Record<string, number>>>;

/** The human ratings that count, and the two models' scores, per item. */
export interface RatingsByRater {
  items: readonly CalibrationItem[];
  judge: ScoresByItem;
  crossCheck: ScoresByItem;
}

/** Rating pairs grouped by item (the bootstrap resamples items): `pairs[item]` lists that item's pairs. */
export type PairsByItem = RatingPair[][];

/**
 * The rating pairs of every comparison on every axis, in one pass over the items. A model is
 * paired with every reviewer who rated the item on that axis, so an item rated by two reviewers
 * gives two pairs; reviewers are paired with each other (in name order) for every two who rated
 * the same item. Missing ratings give no pair; they are not guessed.
 *
 * @returns `tables[comparison][axis index]`
 */
export function comparisonTables(ratings: RatingsByRater, axes: readonly string[]): Record<ComparisonId, PairsByItem[]> {
  const tables = Object.fromEntries(COMPARISONS.map(({ id }) => [id, axes.map(() => [] as PairsByItem)])) as Record<ComparisonId, PairsByItem[]>;
  for (const item of ratings.items) {
    const reviewers = [...item.ratings].sort((left, right) => (left.reviewer < right.reviewer ? -1 : left.reviewer > right.reviewer ? 1 : 0));
    const judge = ratings.judge.get(item.id);
    const crossCheck = ratings.crossCheck.get(item.id);
    axes.forEach((axis, index) => {
      const humans: number[] = [];
      for (const rating of reviewers) {
        const value = rating[axis];
        if (typeof value === 'number') humans.push(value);
      }
      const judgeScore = judge?.[axis];
      const crossScore = crossCheck?.[axis];
      tables.judge_vs_human[index]!.push(judgeScore === undefined ? [] : humans.map((human) => [judgeScore, human] as const));
      tables.cross_check_vs_human[index]!.push(crossScore === undefined ? [] : humans.map((human) => [crossScore, human] as const));
      tables.judge_vs_cross_check[index]!.push(judgeScore === undefined || crossScore === undefined ? [] : [[judgeScore, crossScore] as const]);
      const between: RatingPair[] = [];
      for (let first = 0; first < humans.length; first += 1) {
        for (let second = first + 1; second < humans.length; second += 1) between.push([humans[first]!, humans[second]!]);
      }
      tables.human_vs_human[index]!.push(between);
    });
  }
  return tables;
}

/** The pairs of every axis together, still grouped by item. */
export function pooledPairs(perAxis: readonly PairsByItem[]): PairsByItem {
  const items = perAxis[0]?.length ?? 0;
  return Array.from({ length: items }, (_, item) => perAxis.flatMap((pairs) => pairs[item]!));
}
