import { isInPercentage } from './hash-bucket.js';

/** The salt `parley canary assign` uses unless told otherwise. */
export const DEFAULT_CANARY_SALT = 'parley-canary';

export type CanaryArm = 'canary' | 'stable';

/**
 * Which arm a conversation is routed to: `canary` when its bucket for the salt is below
 * `rolloutPercent × 100` (see hashBucket), else `stable`.
 *
 * @example canaryArm('conv-4', { rolloutPercent: 5 }) // → 'canary' (bucket 36)
 */
export function canaryArm(id: string, options: { rolloutPercent: number; salt?: string }): CanaryArm {
  return isInPercentage(options.salt ?? DEFAULT_CANARY_SALT, id, options.rolloutPercent) ? 'canary' : 'stable';
}
