import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@parley/core';
import { emptyCost } from '@parley/core';
import { batchedResultSaves } from './batched-result-saves.js';

function result(id: string): ScenarioResult {
  return { scenario_id: id, agent: 'a', gate: 'blocking', tags: [], metadata_only: false, status: 'pass', reason: 'ok', metrics: [], cost: emptyCost() };
}

/** A timer the test fires by hand: no real time passes. */
function manualTimer() {
  const pending: Array<{ callback: () => void; delayMs: number; cancelled: boolean }> = [];
  return {
    pending,
    setTimer(callback: () => void, delayMs: number) {
      const entry = { callback, delayMs, cancelled: false };
      pending.push(entry);
      return () => {
        entry.cancelled = true;
      };
    },
    fire() {
      for (const entry of pending.splice(0)) if (!entry.cancelled) entry.callback();
    },
  };
}

describe('batchedResultSaves', () => {
  it('saves a full batch at once, in one call, in the order the results finished', () => {
    const batches: string[][] = [];
    const timer = manualTimer();
    const saves = batchedResultSaves((results) => batches.push(results.map((each) => each.scenario_id)), { maxBatch: 3, setTimer: timer.setTimer });
    for (const id of ['s1', 's2', 's3', 's4']) saves.save(result(id));
    expect(batches).toEqual([['s1', 's2', 's3']]);
    saves.close();
    expect(batches).toEqual([['s1', 's2', 's3'], ['s4']]);
  });

  it('saves what waits when its timer fires, and schedules one timer per batch', () => {
    const batches: string[][] = [];
    const timer = manualTimer();
    const saves = batchedResultSaves((results) => batches.push(results.map((each) => each.scenario_id)), { maxBatch: 10, maxDelayMs: 50, setTimer: timer.setTimer });
    saves.save(result('s1'));
    saves.save(result('s2'));
    expect(batches).toEqual([]);
    expect(timer.pending.map((entry) => entry.delayMs)).toEqual([50]);
    timer.fire();
    expect(batches).toEqual([['s1', 's2']]);
    saves.save(result('s3'));
    expect(timer.pending).toHaveLength(1);
    saves.close();
    expect(batches).toEqual([['s1', 's2'], ['s3']]);
    expect(timer.pending.every((entry) => entry.cancelled)).toBe(true);
  });

  it('on Ctrl-C saves what is queued at once and every later result as it comes', () => {
    const batches: string[][] = [];
    const controller = new AbortController();
    const timer = manualTimer();
    const saves = batchedResultSaves((results) => batches.push(results.map((each) => each.scenario_id)), { maxBatch: 10, signal: controller.signal, setTimer: timer.setTimer });
    saves.save(result('s1'));
    controller.abort();
    expect(batches).toEqual([['s1']]);
    saves.save(result('s2'));
    expect(batches).toEqual([['s1'], ['s2']]);
    saves.close();
    expect(batches).toEqual([['s1'], ['s2']]);
  });

  it('throws a failed timed save to the run at its next save, and close is idempotent', () => {
    const timer = manualTimer();
    let fail = true;
    const saved: string[] = [];
    const saves = batchedResultSaves(
      (results) => {
        if (fail) throw new Error('disk full');
        saved.push(...results.map((each) => each.scenario_id));
      },
      { maxBatch: 10, setTimer: timer.setTimer },
    );
    saves.save(result('s1'));
    expect(() => timer.fire()).not.toThrow();
    fail = false;
    expect(() => saves.save(result('s2'))).toThrow('disk full');
    saves.close();
    saves.close();
    expect(saved).toEqual(['s2']);
    expect(() => saves.save(result('s3'))).toThrow('after close');
  });
});
