import { describe, expect, it } from 'vitest';
import { canaryArm, DEFAULT_CANARY_SALT } from './canary-assignment.js';
import { hashBucket } from './hash-bucket.js';

describe('canaryArm', () => {
  it('routes an id to the canary when its bucket is below rollout × 100', () => {
    expect(hashBucket(DEFAULT_CANARY_SALT, 'conv-4')).toBe(36);
    expect(canaryArm('conv-4', { rolloutPercent: 5 })).toBe('canary');
    expect(canaryArm('conv-4', { rolloutPercent: 0.36 })).toBe('stable');
    expect(canaryArm('conv-4', { rolloutPercent: 0.37 })).toBe('canary');
    expect(canaryArm('conv-1', { rolloutPercent: 5 })).toBe('stable');
  });

  it('uses the salt it is given', () => {
    // conv-1 is bucket 9598 with the default salt and 4428 with the empty salt.
    expect(canaryArm('conv-1', { rolloutPercent: 50, salt: '' })).toBe('canary');
    expect(canaryArm('conv-1', { rolloutPercent: 50 })).toBe('stable');
  });
});
