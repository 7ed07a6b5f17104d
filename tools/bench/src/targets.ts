/** A performance budget: either bound may be absent. */
export interface Target {
  maxWallSeconds?: number;
  maxRssMiB?: number;
}

/**
 * Parley's replay targets on the reference machine (2 cores), by scenario count; every scenario
 * has 6 user turns. Sizes without an entry are measured but not judged.
 */
export const REPLAY_TARGETS: ReadonlyMap<number, Target> = new Map([
  [1, { maxWallSeconds: 0.25 }],
  [1_000, { maxWallSeconds: 1.5, maxRssMiB: 250 }],
  [10_000, { maxWallSeconds: 10, maxRssMiB: 400 }],
]);

export type Verdict = 'ok' | 'over' | '-';

/** `over` when a bound is exceeded (or cannot be checked because the figure is missing), `-` without a target. */
export function verdictOf(target: Target | undefined, wallSeconds: number, peakRssMiB: number | undefined): Verdict {
  if (target === undefined) return '-';
  if (target.maxWallSeconds !== undefined && wallSeconds > target.maxWallSeconds) return 'over';
  if (target.maxRssMiB !== undefined && (peakRssMiB === undefined || peakRssMiB > target.maxRssMiB)) return 'over';
  return 'ok';
}

/** `≤ 1.5 s, ≤ 250 MiB`, or `-` without a target. */
export function describeTarget(target: Target | undefined): string {
  if (target === undefined) return '-';
  const parts: string[] = [];
  if (target.maxWallSeconds !== undefined) parts.push(`≤ ${target.maxWallSeconds} s`);
  if (target.maxRssMiB !== undefined) parts.push(`≤ ${target.maxRssMiB} MiB`);
  return parts.join(', ');
}
