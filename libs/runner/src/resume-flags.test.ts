import { describe, expect, it } from 'vitest';
import { refuseResumeOverrides } from './resume-flags.js';
import type { ResumeState } from './resume-run.js';

const RESUMED: ResumeState = {
  runId: '20261128-000000-abcdef',
  startedAt: new Date('2026-11-28T00:00:00Z'),
  outDir: '/work/project/out',
  previous: [],
  options: { suitePath: '/work/suite', mode: 'live', onlyCases: ['s1', 's2'], baseline: 'base.json', shard: { index: 1, total: 2 } },
};

function refusal(given: Parameters<typeof refuseResumeOverrides>[0]): string | undefined {
  try {
    refuseResumeOverrides(given, RESUMED, '/work/project');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('refuseResumeOverrides', () => {
  it('accepts the stored values, however the file is written', () => {
    expect(refusal({ suitePath: '.', mode: 'live', baseline: '/work/project/base.json', shard: { index: 1, total: 2 }, repeat: 1, strict: false })).toBeUndefined();
  });

  it('names --last-failed as the flag it is, with the number of cases, not as a list of values', () => {
    expect(refusal({ suitePath: '.', onlyCases: ['s3'] })).toBe(
      '--resume 20261128-000000-abcdef finishes the run with the flags it was started with; leave out --last-failed (1 case) (the run has --last-failed (2 cases))',
    );
  });
});
