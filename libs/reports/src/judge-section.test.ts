import { describe, expect, it } from 'vitest';
import { judgeSummary, mergeJudgeReports } from './judge-section.js';
import type { JudgeReport } from './report-schema.js';

const JUDGE: JudgeReport = {
  primary: 'anthropic:claude-opus-4-7',
  mode: 'live',
  verdicts: 12,
  errors: 1,
  votes_on_fail: 3,
  re_asked: 2,
  cache: { read: true, written: true, cleared: false, hits: 3, misses: 9, saved_usd: 0.021 },
  cross_check: {
    model: 'openai:gpt-4.1',
    sample: 0.1,
    seed: 42,
    sampled: ['a', 'b'],
    checked: ['a'],
    agreement: [{ metric: 'conversation_judge', compared: 2, agreed: 1, rate: 0.5, mean_abs_score_difference: 0.2 }],
    downgrade: { reason: 'budget', spent_usd: 1.02, limit_usd: 1, not_checked: ['b'], message: 'cross-check sample 10% → 0% once $1.0200 of the $1.0000 budget was spent (1 of 2 sampled scenarios cross-checked before)' },
  },
};

describe('judgeSummary', () => {
  it('says what the judges did in one paragraph: verdicts, errors, votes, cache, cross-check agreement and downgrade', () => {
    expect(judgeSummary(JUDGE)).toBe(
      'Judge anthropic:claude-opus-4-7 (live): 12 verdicts, 1 could not be evaluated, 2 failing re-asked (majority of 3), 3 from the cache (cost 0, saved $0.0210); ' +
        'cross-check openai:gpt-4.1 on 1 of 2 sampled scenarios (10%, seed 42): conversation_judge agreed 1 of 2 (50%); ' +
        'cross-check sample 10% → 0% once $1.0200 of the $1.0000 budget was spent (1 of 2 sampled scenarios cross-checked before)',
    );
  });

  it('is null without a judge and short without extras', () => {
    expect(judgeSummary(undefined)).toBeNull();
    expect(judgeSummary({ primary: 'openai:gpt-4.1', mode: 'replay', verdicts: 1, errors: 0, cache: { read: false, written: false, cleared: false, hits: 0, misses: 0, saved_usd: 0 } })).toBe(
      'Judge openai:gpt-4.1 (replay): 1 verdict',
    );
  });
});

describe('mergeJudgeReports', () => {
  it("adds the shards' counts, joins their samples and recomputes agreement from the counts", () => {
    const shard = (sampled: string[], compared: number, agreed: number, difference: number, hits: number): JudgeReport => ({
      ...JUDGE,
      verdicts: 5,
      errors: 0,
      re_asked: 1,
      cache: { ...JUDGE.cache, hits, saved_usd: hits * 0.01 },
      cross_check: {
        ...JUDGE.cross_check!,
        sampled,
        checked: sampled,
        agreement: [{ metric: 'conversation_judge', compared, agreed, rate: agreed / compared, mean_abs_score_difference: difference }],
      },
    });
    const { downgrade: _downgrade, ...withoutDowngrade } = shard(['b'], 1, 1, 0.1, 2).cross_check!;
    const merged = mergeJudgeReports([shard(['a', 'c'], 2, 1, 0.4, 1), undefined, { ...shard(['b'], 1, 1, 0.1, 2), cross_check: withoutDowngrade }]);
    expect(merged).toMatchObject({ verdicts: 10, errors: 0, re_asked: 2, cache: { hits: 3, saved_usd: expect.closeTo(0.03, 12) } });
    expect(merged!.cross_check).toMatchObject({ sampled: ['a', 'b', 'c'], checked: ['a', 'b', 'c'], downgrade: { not_checked: ['b'] } });
    expect(merged!.cross_check!.agreement).toEqual([{ metric: 'conversation_judge', compared: 3, agreed: 2, rate: 2 / 3, mean_abs_score_difference: expect.closeTo((2 * 0.4 + 0.1) / 3, 12) }]);
    expect(mergeJudgeReports([undefined, undefined])).toBeUndefined();
  });

  it('keeps resumed_part when a shard was finished with --resume: the sum then lacks that shard\'s earlier part', () => {
    const { cross_check: _crossCheck, ...plain } = JUDGE;
    expect(mergeJudgeReports([plain, plain])).not.toHaveProperty('resumed_part');
    const merged = mergeJudgeReports([plain, { ...plain, resumed_part: true }]);
    expect(merged).toMatchObject({ verdicts: 24, resumed_part: true });
    expect(judgeSummary(merged)).toMatch(/^Judge anthropic:claude-opus-4-7 \(live\) in this resumed part: 24 verdicts/);
  });

  it('adds up the judge calls never answered (budget, Ctrl-C), and leaves the field out when no shard had any', () => {
    const { cross_check: _crossCheck, ...plain } = JUDGE;
    expect(mergeJudgeReports([plain, plain])).not.toHaveProperty('not_asked');
    const merged = mergeJudgeReports([plain, { ...plain, not_asked: { budget: 2, interrupted: 1 } }, { ...plain, not_asked: { budget: 3, interrupted: 0 } }]);
    expect(merged).toMatchObject({ errors: 3, not_asked: { budget: 5, interrupted: 1 } });
    expect(judgeSummary(merged)).toContain('36 verdicts, 3 could not be evaluated, 5 not asked (the budget was reached), 1 cut short by the interruption');
  });
});
