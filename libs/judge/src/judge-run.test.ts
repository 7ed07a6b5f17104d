import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJudgeCache } from '@parley/store';
import { manualClock, type MetricResult } from '@parley/core';
import { judgeMetricCatalog } from './judge-catalog.js';
import { CROSS_CHECK_BUDGET_SHARE, JudgeRun, type BudgetView, type JudgeRunOptions } from './judge-run.js';
import { BOOKING_TRANSCRIPT, fakeJudge, memoryCache } from './test-support/judge-fixtures.js';

const SCORES = (score: number) => ({
  content: {
    message_scores: [
      { message_index: 1, score, reason: 'ok' },
      { message_index: 5, score, reason: 'ok' },
    ],
    overall_feedback: `all ${score}`,
  },
  usage: { input_tokens: 1000, output_tokens: 100 },
});

let fake: Awaited<ReturnType<typeof fakeJudge>>;
beforeAll(async () => {
  fake = await fakeJudge({
    rules: [
      { name: 'primary', when: { model: 'claude-opus-4-7' }, reply: SCORES(90) },
      { name: 'second', when: { model: 'gpt-4.1' }, reply: SCORES(60) },
    ],
  });
});
afterAll(async () => {
  await fake.server.close();
});

const ids = Array.from({ length: 10 }, (_, index) => `s${index}`);

function judgeRun(overrides: Partial<JudgeRunOptions> = {}): JudgeRun {
  return new JudgeRun({
    judge: {
      primary: { provider: 'anthropic', model: 'claude-opus-4-7' },
      cross_check: { provider: 'openai', model: 'gpt-4.1', sample: 0.2 },
    },
    catalog: judgeMetricCatalog([]),
    mode: 'live',
    readCache: true,
    seed: 7,
    scenarioIds: ids,
    clock: manualClock(),
    ...overrides,
  });
}

function scenario(id: string, overrides: { promptVersion?: string; attempt?: number } = {}) {
  return {
    scenario: { id, language: 'sw' },
    transcript: BOOKING_TRANSCRIPT,
    expectations: [{ metric: 'conversation_judge' }],
    promptVersion: overrides.promptVersion ?? 'booking@abc1234',
    provider: fake.provider,
    ...(overrides.attempt !== undefined ? { attempt: overrides.attempt } : {}),
  };
}

const calls = () => fake.judgeCalls().length;
const unsampled = (run: JudgeRun) => ids.find((id) => !run.isSampled(id))!;

describe('JudgeRun: the verdict cache', () => {
  it('answers an unchanged scenario from the cache with no call, at cost 0, and says so', async () => {
    const cache = memoryCache();
    const first = judgeRun({ cache, judge: { primary: { provider: 'anthropic', model: 'claude-opus-4-7' } } });
    fake.server.resetLog();
    const [fresh] = await first.judgeScenario(scenario('s1'));
    expect(calls()).toBe(1);
    expect(fresh!.details?.['cached']).toBeUndefined();
    expect([...cache.entries.values()][0]).toMatchObject({ scenario_id: 's1', metric: 'conversation_judge', metric_version: '1.0.0', judge_model: 'anthropic:claude-opus-4-7', prompt_version: 'booking@abc1234', cost_usd: (1000 * 5 + 100 * 25) / 1e6 });

    const second = judgeRun({ cache, judge: { primary: { provider: 'anthropic', model: 'claude-opus-4-7' } } });
    fake.server.resetLog();
    const [cached] = await second.judgeScenario(scenario('s1'));
    expect(calls()).toBe(0);
    expect(cached).toMatchObject({ score: 0.9, passed: true, details: { cached: true, judge_calls: 0, message_scores: fresh!.details!['message_scores'] } });
    expect(cached!.reason).toMatch(/\[cached verdict, cost 0\]$/);
    expect(second.report().cache).toEqual({ read: true, written: true, cleared: false, hits: 1, misses: 0, saved_usd: 0.0075 });
  });

  it('misses when the prompt version, the metric version, the judge model, the transcript or the attempt changes', async () => {
    const cache = memoryCache();
    const primaryOnly = { primary: { provider: 'anthropic' as const, model: 'claude-opus-4-7' } };
    await judgeRun({ cache, judge: primaryOnly }).judgeScenario(scenario('s1'));
    fake.server.resetLog();
    const run = judgeRun({ cache, judge: primaryOnly });
    await run.judgeScenario(scenario('s1', { promptVersion: 'booking@abc1234-dirty.0badf00d' }));
    await run.judgeScenario(scenario('s1', { attempt: 2 }));
    await run.judgeScenario({ ...scenario('s1'), transcript: { ...BOOKING_TRANSCRIPT, turns: BOOKING_TRANSCRIPT.turns.map((turn) => ({ ...turn, content: turn.content.replace('saa nne', 'saa tano') })) } });
    const bumped = judgeMetricCatalog([]);
    const conversationJudge = bumped.get('conversation_judge')!;
    (bumped as Map<string, typeof conversationJudge>).set('conversation_judge', { ...conversationJudge, version: '1.1.0' });
    await judgeRun({ cache, judge: primaryOnly, catalog: bumped }).judgeScenario(scenario('s1'));
    expect(calls()).toBe(4);
    // Another criteria text is another question.
    await run.judgeScenario({ ...scenario('s1'), expectations: [{ metric: 'conversation_judge', criteria: 'Confirms the price.' }] });
    expect(calls()).toBe(5);
    expect(run.report().cache).toMatchObject({ hits: 0, misses: 4 });
  });

  it('is neither read nor written when judging is replayed, and not read in record mode', async () => {
    const cache = memoryCache();
    await judgeRun({ cache, mode: 'replay' }).judgeScenario(scenario('s1'));
    expect(cache.entries.size).toBe(0);
    const recording = judgeRun({ cache, readCache: false, judge: { primary: { provider: 'anthropic', model: 'claude-opus-4-7' } } });
    await recording.judgeScenario(scenario('s1'));
    fake.server.resetLog();
    await recording.judgeScenario(scenario('s1'));
    expect(calls()).toBe(1);
    expect(cache.entries.size).toBe(1);
    expect(recording.report().cache).toMatchObject({ read: false, written: true });
  });

  it('waits for a verdict another process is judging instead of judging it again (two handles on one store)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'parley-judge-claims-'));
    const handles = [openJudgeCache(join(folder, 'parley.db')), openJudgeCache(join(folder, 'parley.db'))] as const;
    try {
      fake.server.resetLog();
      const primaryOnly = { primary: { provider: 'anthropic' as const, model: 'claude-opus-4-7' } };
      // Each waits (its injected sleep) until the other has finished: no clock involved.
      const finished: Array<Promise<unknown>> = [];
      let polls = 0;
      const sleepUntilOtherDone = (other: number) => async (): Promise<void> => {
        polls += 1;
        await finished[other];
      };
      const runs = [0, 1].map((index) => judgeRun({ cache: handles[index]!, judge: primaryOnly, sleep: sleepUntilOtherDone(1 - index) }));
      finished.push(runs[0]!.judgeScenario(scenario('s1')));
      finished.push(runs[1]!.judgeScenario(scenario('s1')));
      const [[first], [second]] = (await Promise.all(finished)) as [MetricResult[], MetricResult[]];
      expect(calls()).toBe(1);
      expect(polls).toBe(1);
      expect([first!.score, second!.score]).toEqual([0.9, 0.9]);
      const reports = runs.map((run) => run.report().cache);
      expect(reports.map((report) => report.hits).sort()).toEqual([0, 1]);
      expect(reports.map((report) => report.misses).sort()).toEqual([0, 1]);
      // The claim was released with the verdict stored: a third asker neither waits nor judges.
      expect(handles[0].claim('free-after-release', 1_000)).toBe('claimed');
    } finally {
      for (const handle of handles) handle.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('JudgeRun: cross-check', () => {
  it('re-judges the sampled scenarios with the second model and reports per-metric agreement', async () => {
    const run = judgeRun();
    const sampled = ids.filter((id) => run.isSampled(id));
    expect(sampled).toHaveLength(2);
    fake.server.resetLog();
    for (const id of ids) await run.judgeScenario(scenario(id));
    expect(fake.judgeCalls().filter((call) => call.model === 'gpt-4.1')).toHaveLength(2);
    const [checked] = await judgeRun().judgeScenario(scenario(sampled[0]!));
    expect(checked!.details?.['cross_check']).toEqual({ judge_model: 'openai:gpt-4.1', score: 0.6, passed: false, agrees: false });
    const report = run.report();
    expect(report.cross_check).toMatchObject({ model: 'openai:gpt-4.1', sample: 0.2, seed: 7, sampled, checked: sampled });
    expect(report.cross_check!.agreement).toEqual([{ metric: 'conversation_judge', compared: 2, agreed: 0, rate: 0, mean_abs_score_difference: expect.closeTo(0.3, 12) }]);
    const [plain] = await run.judgeScenario(scenario(unsampled(run)));
    expect(plain!.details?.['cross_check']).toBeUndefined();
  });

  it('drops to 0% for the rest of the run once spending reaches the budget, and says when and why', async () => {
    const budget = { exhausted: false, spentUsd: 0.004, limitUsd: 0.01 };
    const run = judgeRun({ budget: budget as BudgetView, judge: { primary: { provider: 'anthropic', model: 'claude-opus-4-7' }, cross_check: { provider: 'openai', model: 'gpt-4.1', sample: 0.5 } } });
    const sampled = ids.filter((id) => run.isSampled(id));
    fake.server.resetLog();
    await run.judgeScenario(scenario(sampled[0]!));
    Object.assign(budget, { exhausted: true, spentUsd: 0.0123 });
    for (const id of sampled.slice(1)) await run.judgeScenario(scenario(id));
    expect(fake.judgeCalls().filter((call) => call.model === 'gpt-4.1')).toHaveLength(1);
    const report = run.report().cross_check!;
    expect(report.checked).toEqual([sampled[0]]);
    expect(report.downgrade).toEqual({
      reason: 'budget',
      spent_usd: 0.0123,
      limit_usd: 0.01,
      not_checked: sampled.slice(1).sort(),
      message: 'cross-check sample 50% → 0% at 80% of the budget: $0.0123 of $0.0100 spent (1 of 5 sampled scenarios cross-checked before)',
    });
    expect(run.budgetDowngrades()).toEqual([`${report.downgrade!.message}; 4 sampled scenarios not cross-checked: ${sampled.slice(1).sort().join(', ')}`]);
  });

  it('drops to 0% at 80% of the budget, before it is exhausted, so the rest pays for judging', async () => {
    expect(CROSS_CHECK_BUDGET_SHARE).toBe(0.8);
    const budget = { exhausted: false, spentUsd: 0.0079, limitUsd: 0.01 };
    const run = judgeRun({ budget: budget as BudgetView, judge: { primary: { provider: 'anthropic', model: 'claude-opus-4-7' }, cross_check: { provider: 'openai', model: 'gpt-4.1', sample: 0.5 } } });
    const sampled = ids.filter((id) => run.isSampled(id));
    fake.server.resetLog();
    await run.judgeScenario(scenario(sampled[0]!));
    expect(fake.judgeCalls().filter((call) => call.model === 'gpt-4.1')).toHaveLength(1);
    budget.spentUsd = 0.008;
    for (const id of sampled.slice(1)) await run.judgeScenario(scenario(id));
    expect(fake.judgeCalls().filter((call) => call.model === 'gpt-4.1')).toHaveLength(1);
    // The primary judge still judged every scenario.
    expect(fake.judgeCalls().filter((call) => call.model === 'claude-opus-4-7')).toHaveLength(sampled.length);
    expect(run.report().cross_check!.downgrade).toMatchObject({ spent_usd: 0.008, limit_usd: 0.01, message: expect.stringMatching(/^cross-check sample 50% → 0% at 80% of the budget: \$0\.0080 of \$0\.0100 spent/) });
  });
});
