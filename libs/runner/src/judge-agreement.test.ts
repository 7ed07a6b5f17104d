import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { CrossCheckPair } from '@parley/judge';
import { openStore } from '@parley/store';
import { crossCheckKappa, recordJudgeAgreement } from './judge-agreement.js';

const pair = (primary: number, crossCheck: number, threshold = 0.7): CrossCheckPair => ({
  metric: 'conversation_judge',
  primary: { score: primary, passed: primary >= threshold },
  cross_check: { score: crossCheck, passed: crossCheck >= threshold },
});

/** 20 pairs: pass/pass 8, pass/fail 2, fail/pass 2, fail/fail 8 → kappa (0.8 − 0.5) / 0.5 = 0.6. */
const MOSTLY_AGREEING = [
  ...Array.from({ length: 8 }, () => pair(0.9, 0.9)),
  ...Array.from({ length: 2 }, () => pair(0.9, 0.5)),
  ...Array.from({ length: 2 }, () => pair(0.5, 0.9)),
  ...Array.from({ length: 8 }, () => pair(0.3, 0.3)),
];
const DISAGREEING = [...Array.from({ length: 5 }, () => pair(0.9, 0.3)), ...Array.from({ length: 5 }, () => pair(0.3, 0.9))];

describe('crossCheckKappa', () => {
  it('is Cohen’s kappa on pass/fail, and the quadratic-weighted kappa on the scores in five bands', async () => {
    const measured = await crossCheckKappa(MOSTLY_AGREEING);
    expect(measured.pairs).toBe(20);
    expect(measured.pass_fail).toBeCloseTo(0.6, 10);
    expect(measured.weighted).toBeGreaterThan(0.6);
    expect((await crossCheckKappa(DISAGREEING)).pass_fail).toBeCloseTo(-1, 10);
  });

  it('is null, not 0 or 1, when both judges gave the same verdict every time', async () => {
    expect(await crossCheckKappa([pair(0.9, 0.9), pair(0.85, 0.95)])).toEqual({ pairs: 2, pass_fail: null, weighted: null });
    expect(await crossCheckKappa([])).toEqual({ pairs: 0, pass_fail: null, weighted: null });
  });
});

describe('recordJudgeAgreement', () => {
  it('stores each run’s kappa, reports the suite’s trend, and warns when it drops', async () => {
    const storePath = join(mkdtempSync(join(tmpdir(), 'parley-kappa-')), 'parley.db');
    const store = openStore(storePath);
    const runs = ['r1', 'r2', 'r3'].map((id, index) => ({ id, suite: 'spa', started_at: `2026-11-2${index + 1}T10:00:00.000Z` }));
    for (const run of runs) {
      store.createRun({ ...run, mode: 'live', git_sha: null, config_fingerprint: null, parley_version: '0.1.0', options: {}, out_dir: '/tmp' });
    }
    store.createRun({ id: 'other', suite: 'municipal', started_at: '2026-11-20T10:00:00.000Z', mode: 'live', git_sha: null, config_fingerprint: null, parley_version: '0.1.0', options: {}, out_dir: '/tmp' });
    store.close();

    await recordJudgeAgreement({ storePath, run: { id: 'other', suite: 'municipal', started_at: '2026-11-20T10:00:00.000Z' }, pairs: DISAGREEING });
    const first = await recordJudgeAgreement({ storePath, run: runs[0]!, pairs: MOSTLY_AGREEING });
    expect(first.kappa.trend).toEqual([]); // another suite's runs are not its trend
    expect(first.warnings).toEqual([]);
    const steady = await recordJudgeAgreement({ storePath, run: runs[1]!, pairs: MOSTLY_AGREEING });
    expect(steady.kappa.trend).toEqual([{ run_id: 'r1', kappa: expect.closeTo(0.6, 10) }]);
    expect(steady.warnings).toEqual([]);

    const dropped = await recordJudgeAgreement({ storePath, run: runs[2]!, pairs: DISAGREEING, parleyCommand: () => 'npx parley' });
    expect(dropped.kappa.trend.map((entry) => entry.run_id)).toEqual(['r1', 'r2']);
    expect(dropped.warnings).toEqual([
      {
        kind: 'judge_agreement_drop',
        message: expect.stringMatching(/^the cross-check judge agrees less with the primary: kappa -1\.00 on 10 sampled verdicts, down from a mean of 0\.60 over the last 2 runs.*\(npx parley calibrate judge\)$/),
        fails_under_strict: false,
      },
    ]);
  });
});
