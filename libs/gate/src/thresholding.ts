import type { Thresholding } from '@parley/config';

/** A thresholding with every field decided. */
export interface ResolvedThresholding {
  /** `relative`: judged against the baseline; `absolute`: the metric's own threshold decides. */
  mode: 'relative' | 'absolute';
  /** The largest drop below the baseline score that still passes. */
  max_drop: number;
  /** A score below this fails whatever the baseline says; null when not set. */
  min_floor: number | null;
}

/**
 * What applies when neither the suite nor the expectation says: relative, a drop of up to 0.05
 * allowed (judge scores wander by a few hundredths between identical runs; replayed deterministic
 * metrics do not move at all), no floor.
 */
export const DEFAULT_THRESHOLDING: ResolvedThresholding = { mode: 'relative', max_drop: 0.05, min_floor: null };

/**
 * The thresholding of one expectation: its own `thresholding` field by field over the suite's
 * `settings.thresholding`, over {@link DEFAULT_THRESHOLDING}. Field by field, so that
 * `thresholding: { max_drop: 0.1 }` on one expectation keeps the suite's `min_floor`.
 *
 * @example resolveThresholding({ max_drop: 0.03, min_floor: 0.8 }, { max_drop: 0.1 }) // relative, 0.1, 0.8
 */
export function resolveThresholding(suiteDefault?: Thresholding, override?: Thresholding): ResolvedThresholding {
  const pick = <Key extends keyof Thresholding>(key: Key): Thresholding[Key] => override?.[key] ?? suiteDefault?.[key];
  return {
    mode: pick('mode') ?? DEFAULT_THRESHOLDING.mode,
    max_drop: pick('max_drop') ?? DEFAULT_THRESHOLDING.max_drop,
    min_floor: pick('min_floor') ?? DEFAULT_THRESHOLDING.min_floor,
  };
}
