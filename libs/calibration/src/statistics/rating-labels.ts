/**
 * The rating scale of every calibration axis (docs/calibration.md, "Axes and scale"). Statistics
 * always use this full list, not only the labels that occur: a weighted kappa whose weights
 * depended on which ratings happened to be given would change meaning from one month to the next.
 */
export const RATING_LABELS: readonly number[] = [1, 2, 3, 4, 5];

/**
 * Two ratings of the same thing by two raters, in a fixed order: `[judge, human]`,
 * `[cross_check, human]`, `[judge, cross_check]` or `[reviewer, other reviewer]`. Signed
 * statistics (the bias) are first − second.
 */
export type RatingPair = readonly [first: number, second: number];
