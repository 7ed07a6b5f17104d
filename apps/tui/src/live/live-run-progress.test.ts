import { describe, expect, it } from 'vitest';
import { emptyCost, type RunEvent, type ScenarioResult, type Status } from '@parley/core';
import { triageOrder } from '@parley/gate';
import { LiveRunProgress } from './live-run-progress.js';
import { describeCounts, formatElapsed, progressBar } from './live-format.js';

const RUN = 'run-1';

function result(id: string, status: Status, usd: number | null = 0.01): ScenarioResult {
  return { scenario_id: id, agent: 'a', gate: 'blocking', tags: [], metadata_only: false, status, reason: `${id} ${status}`, metrics: [], cost: { ...emptyCost(), usd } };
}

function progressOf(events: RunEvent[]): LiveRunProgress {
  const progress = new LiveRunProgress();
  for (const event of events) progress.apply(event);
  return progress;
}

const started: RunEvent = { type: 'run_started', run_id: RUN, suite: 's', mode: 'live', scenario_ids: ['a', 'b', 'c', 'd'], started_at: '2026-01-01T00:00:00Z' };
const start = (id: string): RunEvent => ({ type: 'scenario_started', run_id: RUN, scenario_id: id });
const finish = (scenario: ScenarioResult): RunEvent => ({ type: 'scenario_finished', run_id: RUN, result: scenario });
const turn = (id: string, number: number, costUsd: number | null): RunEvent => ({
  type: 'turn_completed',
  run_id: RUN,
  scenario_id: id,
  turn: { role: 'assistant', content: 'hi', turn: number, cost_usd: costUsd },
});

describe('LiveRunProgress', () => {
  it('follows each scenario from waiting to running (with its turn) to finished', () => {
    const progress = progressOf([started, start('a'), turn('a', 1, 0.002), turn('a', 2, 0.003), start('b')]);
    expect([progress.finished, progress.running, progress.waiting, progress.total]).toEqual([0, 2, 2, 4]);
    expect(progress.liveRows()).toEqual([
      { id: 'a', state: 'running', turn: 2, spentUsd: 0.005 },
      { id: 'b', state: 'running', turn: 0, spentUsd: 0 },
      { id: 'c', state: 'waiting' },
      { id: 'd', state: 'waiting' },
    ]);
    progress.apply(finish(result('a', 'fail', 0.02)));
    expect(progress.liveRows(3).map((row) => [row.id, row.state])).toEqual([
      ['b', 'running'],
      ['a', 'finished'],
      ['c', 'waiting'],
    ]);
    expect(progress.counts()).toMatchObject({ fail: 1, pass: 0 });
  });

  it('counts spend from finished results and the calls of scenarios in flight; unpriced calls are flagged', () => {
    const progress = progressOf([started, start('a'), start('b'), turn('b', 1, 0.004)]);
    progress.apply(finish(result('a', 'pass', 0.02)));
    expect(progress.spend().usd).toBeCloseTo(0.024);
    expect(progress.spend().unpriced).toBe(false);
    progress.apply(turn('b', 2, null));
    expect(progress.spend()).toEqual({ usd: 0.02, unpriced: true });
    progress.apply(finish(result('b', 'pass', 0.05)));
    expect(progress.spend()).toEqual({ usd: 0.07, unpriced: false });
  });

  it('lists failures as they happen, and once over orders the list by severity, then what never finished', () => {
    const progress = progressOf([started, start('a'), start('b'), start('c')]);
    progress.apply(finish(result('c', 'error')));
    progress.apply(finish(result('a', 'pass')));
    progress.apply(finish(result('b', 'fail')));
    // A scenario the budget skipped finishes without having started.
    progress.apply(finish(result('d', 'skipped')));
    expect(progress.failures().map((failure) => failure.scenario_id)).toEqual(['c', 'b']);
    expect(progress.finalRows().map((row) => row.id)).toEqual(['c', 'b', 'a', 'd']);

    const interrupted = progressOf([started, start('a'), start('b')]);
    interrupted.apply(finish(result('b', 'pass')));
    expect(interrupted.finalRows().map((row) => [row.id, row.state])).toEqual([
      ['b', 'finished'],
      ['a', 'running'],
      ['c', 'waiting'],
      ['d', 'waiting'],
    ]);
  });
});

describe('the order of the live summary', () => {
  it('is the run screen’s order (triageOrder): most severe first, blocking before advisory, then by id', () => {
    const results = [
      { ...result('a_adv', 'fail'), gate: 'advisory' as const },
      result('b_block', 'fail'),
      result('c_err', 'error'),
      result('d_pass', 'pass'),
      result('e_flaky', 'flaky'),
    ];
    const progress = progressOf([
      { ...started, scenario_ids: results.map((entry) => entry.scenario_id) },
      ...results.flatMap((entry) => [start(entry.scenario_id), finish(entry)]),
    ]);
    const order = progress.finalRows().map((row) => row.id);
    expect(order).toEqual(['c_err', 'b_block', 'a_adv', 'e_flaky', 'd_pass']);
    expect(order).toEqual(triageOrder(results).map((entry) => entry.scenario_id));
  });
});

describe('live formatting', () => {
  it('draws bars, elapsed time and counts', () => {
    expect(progressBar(0.5, 10)).toBe('█████░░░░░');
    expect(progressBar(2, 4)).toBe('████');
    expect(progressBar(Number.NaN, 3)).toBe('░░░');
    expect(formatElapsed(61_500)).toBe('1:01');
    expect(formatElapsed(3_723_000)).toBe('1:02:03');
    expect(describeCounts({ pass: 7, fail: 1, warn: 0, flaky: 0, error: 0, skipped: 0 })).toBe('7 pass · 1 fail');
    expect(describeCounts({ pass: 0, fail: 0, warn: 0, flaky: 0, error: 0, skipped: 0 })).toBe('none finished yet');
  });
});
