import type { Gate, Status } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { compareRuns } from './compare-runs.js';
import { renderComparison } from './render-comparison.js';
import type { RunScores, ScenarioScores } from './run-scores.js';

function scenario(id: string, status: Status, scores: Record<string, number[]>, gate: Gate = 'blocking'): ScenarioScores {
  const metrics = new Map(Object.entries(scores).map(([key, values]) => [key, { metric: key.replace(/#\d+$/, ''), scores: values }]));
  return { scenario_id: id, status, gate, attempts: Object.values(scores)[0]?.length ?? 1, metrics };
}

function run(label: string, repeat: number, scenarios: ScenarioScores[], suite = 'demo'): RunScores {
  return { label, run_id: `${label}-id`, suite, repeat, scenarios: new Map(scenarios.map((entry) => [entry.scenario_id, entry])) };
}

const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

describe('compareRuns', () => {
  it('lists status changes worse first and metric deltas regressions first', () => {
    const before = run('main', 1, [scenario('a', 'pass', { tool_correctness: [0.9] }), scenario('b', 'pass', { tool_correctness: [0.5] }), scenario('gone', 'pass', {})]);
    const after = run('pr', 1, [scenario('a', 'fail', { tool_correctness: [0.6] }), scenario('b', 'pass', { tool_correctness: [0.7] }), scenario('new', 'pass', {})]);
    const comparison = compareRuns(before, after);
    expect(comparison.status_changes).toEqual([{ scenario_id: 'a', before: 'pass', after: 'fail', worse: true }]);
    expect(comparison.deltas.map((delta) => [delta.scenario_id, Number(delta.delta.toFixed(6))])).toEqual([
      ['a', -0.3],
      ['b', 0.2],
    ]);
    expect(comparison.only_before).toEqual(['gone']);
    expect(comparison.only_after).toEqual(['new']);
    expect(comparison.tests).toBeNull();
    expect(comparison.statistics_note).toContain('run both with --repeat N');
    const text = renderComparison(comparison);
    expect(text).toContain('a  pass → fail  (worse)');
    expect(text.indexOf('  a ')).toBeLessThan(text.indexOf('  b '));
    expect(text).toContain('Across scenarios: no significance test');
  });

  it('with repeats, calls a consistent drop across scenarios a regression', () => {
    const before = run('main', 3, ids.map((id) => scenario(id, 'pass', { tool_correctness: [0.9, 0.92, 0.88] })));
    const after = run('pr', 3, ids.map((id, index) => scenario(id, 'pass', { tool_correctness: [0.8 - index * 0.005, 0.82, 0.79] })));
    const [test] = compareRuns(before, after, { seed: 3, resamples: 2000 }).tests!;
    expect(test!.verdict).toBe('regression');
    expect(test!.pairs).toBe(8);
    expect(test!.test).toMatchObject({ method: 'exact', permutations: 256 });
    expect(test!.test.p_value).toBeCloseTo(2 / 256, 12);
    expect(test!.interval.high).toBeLessThan(0);
    expect(test!.t_statistic).toBeLessThan(0);
  });

  it('with repeats, calls noise noise', () => {
    const before = run('main', 3, ids.map((id) => scenario(id, 'pass', { tool_correctness: [0.9, 0.9, 0.9] })));
    const after = run('pr', 3, ids.map((id, index) => scenario(id, 'pass', { tool_correctness: [0.9 + (index % 2 === 0 ? 0.02 : -0.02), 0.9, 0.9] })));
    const comparison = compareRuns(before, after, { resamples: 2000 });
    expect(comparison.tests![0]!.verdict).toBe('no significant change');
    expect(renderComparison(comparison)).toMatch(/tool_correctness: 8 pairs, mean delta 0 \[-?0\.\d+, \+?0\.\d+\], p = 1 \(exact, t = 0\.00\) → no significant change/);
  });

  it('gives the same numbers for the same seed', () => {
    const before = run('main', 2, ids.map((id, index) => scenario(id, 'pass', { m: [0.5 + index / 100, 0.6] })));
    const after = run('pr', 2, ids.map((id, index) => scenario(id, 'pass', { m: [0.45 + index / 90, 0.58] })));
    expect(compareRuns(before, after, { seed: 9, resamples: 500 })).toEqual(compareRuns(before, after, { seed: 9, resamples: 500 }));
  });

  it('refuses runs of different suites', () => {
    expect(() => compareRuns(run('a', 1, [], 'one'), run('b', 1, [], 'two'))).toThrow(/different suites/);
  });
});
