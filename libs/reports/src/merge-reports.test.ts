import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@parley/core';
import { buildReport } from './build-report.js';
import { mergeShardReports, type ShardReport } from './merge-reports.js';
import type { RunReport } from './report-schema.js';
import { SECRET_PHRASE, runInfo, sampleResults } from './test-support/sample-run.js';

function shards(results: ScenarioResult[], total = 3, overrides: (index: number) => Partial<typeof runInfo> = () => ({})): ShardReport[] {
  return Array.from({ length: total }, (_, position) => {
    const index = position + 1;
    const own = results.filter((_, resultIndex) => resultIndex % total === position);
    const report = buildReport(
      { ...runInfo, run_id: `shard-${index}`, selection: { total: results.length, selected: own.length, shard: { index, total } }, ...overrides(index) },
      own,
    );
    return { source: `shard-${index}/report.json`, report };
  });
}

function statuses(report: RunReport): Record<string, string> {
  return Object.fromEntries(report.results.map((result) => [result.scenario_id, result.status]));
}

describe('mergeShardReports', () => {
  const whole = buildReport(runInfo, sampleResults());

  it('gives the statuses, counts, cost and exit code of the unsharded run', () => {
    const merged = mergeShardReports(shards(sampleResults()), { run_id: 'merged' });
    expect(statuses(merged)).toEqual(statuses(whole));
    expect(merged.counts).toEqual(whole.counts);
    expect(merged.exit_code).toBe(whole.exit_code);
    expect(merged.status).toBe(whole.status);
    expect(merged.cost).toEqual(whole.cost);
    expect(merged.results.map((result) => result.reason)).toEqual(whole.results.map((result) => result.reason));
    expect(merged.merged_from).toEqual([
      { run_id: 'shard-1', shard: '1/3' },
      { run_id: 'shard-2', shard: '2/3' },
      { run_id: 'shard-3', shard: '3/3' },
    ]);
    expect(merged.selection).toEqual({ total: 9, selected: 9, shards: 3 });
    expect(JSON.stringify(merged)).not.toContain(SECRET_PHRASE);
  });

  it('keeps a variant’s values (results[].vars) through report.json and the merge of its shards', () => {
    const results = sampleResults().map((result, index) => (index === 0 ? { ...result, scenario_id: 'greet[lang=zu]', vars: { lang: 'zu' } } : result));
    const merged = mergeShardReports(shards(results), { run_id: 'merged' });
    expect(merged.results.find((result) => result.scenario_id === 'greet[lang=zu]')?.vars).toEqual({ lang: 'zu' });
    expect(merged.results.filter((result) => result.vars !== undefined)).toHaveLength(1);
  });

  it('keeps one limit for shards that held to one shared budget, and adds up the shares of a split one', () => {
    const budget = (index: number, extra: object) => ({ budget: { limit_usd: 2, exhausted: false, downgrades: [], spent_usd: index * 0.4, ...extra } });
    const shared = mergeShardReports(shards(sampleResults(), 3, (index) => budget(index, { shared: { key: 'pr-1', spent_usd: 2.4 } })), { run_id: 'm' });
    expect(shared.budget).toMatchObject({ limit_usd: 2, spent_usd: expect.closeTo(2.4, 10) });
    const split = mergeShardReports(shards(sampleResults(), 3, (index) => budget(index, { split: { total_usd: 6, shards: 3 } })), { run_id: 'm' });
    expect(split.budget).toMatchObject({ limit_usd: 6, spent_usd: expect.closeTo(2.4, 10) });
  });

  it('recomputes the exit code under --strict', () => {
    const passing = sampleResults().filter((result) => ['pass', 'warn', 'flaky'].includes(result.status));
    expect(mergeShardReports(shards(passing, 2), { run_id: 'm' }).exit_code).toBe(0);
    expect(mergeShardReports(shards(passing, 2), { run_id: 'm', strict: true }).exit_code).toBe(1);
    expect(mergeShardReports(shards(passing, 2, (index) => ({ strict: index === 2 })), { run_id: 'm' }).exit_code).toBe(1);
  });

  it('refuses shards of different suites or configurations', () => {
    expect(() => mergeShardReports(shards(sampleResults(), 3, (index) => (index === 2 ? { suite: 'other' } : {})), { run_id: 'm' })).toThrow(
      /shard-2\/report\.json: a report of suite "other", not "ratiba_booking"/,
    );
    expect(() => mergeShardReports(shards(sampleResults(), 3, (index) => (index === 3 ? { config_fingerprint: 'sha256:other' } : {})), { run_id: 'm' })).toThrow(
      /shard-3\/report\.json: another configuration/,
    );
  });

  it('refuses a missing shard, a shard twice, overlapping scenarios and an interrupted shard', () => {
    const three = shards(sampleResults());
    expect(() => mergeShardReports(three.slice(0, 2), { run_id: 'm' })).toThrow(/missing shard 3\/3/);
    // One report given twice is said once, as such; two runs of one shard overlap, said once per pair of shards.
    expect(() => mergeShardReports([three[0]!, three[1]!, three[2]!, three[0]!], { run_id: 'm' })).toThrow(
      /^shard-1\/report\.json: the same run \(shard-1\) as shard-1\/report\.json: give each shard's report once$/,
    );
    const rerun = { ...three[0]!, source: 'again/report.json', report: { ...three[0]!.report, run_id: 'again' } };
    const overlap = (() => {
      try {
        mergeShardReports([three[0]!, three[1]!, three[2]!, rerun], { run_id: 'm' });
      } catch (error) {
        return (error as Error).message.split('\n');
      }
      return [];
    })();
    const count = three[0]!.report.results.length;
    expect(overlap[0]).toMatch(new RegExp(`^again/report\\.json: ${count} scenarios also in shard-1/report\\.json \\(.+\\): shards overlap \\(were they run with the same --shard\\?\\)$`));
    expect(overlap.filter((line) => line.includes('shards overlap'))).toHaveLength(1);
    const interrupted = shards(sampleResults(), 2, (index) => (index === 2 ? { interrupted: true } : {}));
    expect(() => mergeShardReports(interrupted, { run_id: 'm' })).toThrow(/interrupted/);
  });

  it('merges repeated results with their attempts', () => {
    const [plain] = sampleResults().filter((result) => result.status === 'pass');
    const repeated = { ...plain!, status: 'flaky' as const, attempts: [plain!, { ...plain!, status: 'fail' as const }] };
    const report = buildReport({ ...runInfo, repeat: 2 }, [repeated]);
    const merged = mergeShardReports([{ source: 'a', report }], { run_id: 'm' });
    expect(merged.results[0]!.attempts!.map((attempt) => attempt.status)).toEqual(['pass', 'fail']);
    expect(merged.repeat).toBe(2);
  });
});
