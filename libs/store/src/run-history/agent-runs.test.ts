import type { ScenarioResult, Status } from '@parley/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store.js';
import { storeDrivers, useStoreDriver } from '../test-support/each-driver.js';
import { counts, newRun, passingResult, runFinish } from '../test-support/fixtures.js';

function result(scenarioId: string, agent: string, status: Status): ScenarioResult {
  return { ...passingResult(scenarioId), agent, status };
}

describe.each(storeDrivers)('Store.listRunsOfAgent on %s', (driver) => {
  const database = useStoreDriver(driver);
  let store: Store;
  beforeEach(() => {
    store = openStore(database.path);
    // r1 (oldest): booking only; r2: booking and support; r3 (newest): support only.
    store.createRun(newRun({ id: 'r1', started_at: '2026-11-20T10:00:00.000Z' }));
    store.saveScenarioResults('r1', [result('a', 'booking', 'pass'), result('b', 'booking', 'fail')]);
    store.finishRun('r1', runFinish({ counts: counts({ pass: 1, fail: 1 }) }));
    store.createRun(newRun({ id: 'r2', started_at: '2026-11-21T10:00:00.000Z' }));
    store.saveScenarioResults('r2', [result('a', 'booking', 'pass'), result('b', 'booking', 'error'), result('c', 'support', 'fail'), result('d', 'support', 'fail')]);
    store.saveScenarioResult('r2', result('b', 'booking', 'pass'), 1);
    store.finishRun('r2', runFinish({ counts: counts({ pass: 1, fail: 2, error: 1 }) }));
    store.createRun(newRun({ id: 'r3', started_at: '2026-11-22T10:00:00.000Z' }));
    store.saveScenarioResult('r3', result('c', 'support', 'pass'));
  });
  afterEach(() => store.close());

  it("lists the agent's runs newest first, with the agent's own counts beside the run's", () => {
    const runs = store.listRunsOfAgent('booking');
    expect(runs.map((run) => run.id)).toEqual(['r2', 'r1']);
    expect(runs[0]).toMatchObject({
      agent: 'booking',
      agent_scenarios: 2,
      agent_counts: { pass: 1, fail: 0, warn: 0, flaky: 0, error: 1, skipped: 0 },
      scenario_count: 4,
      counts: counts({ pass: 1, fail: 2, error: 1 }),
      status: 'fail',
      finished: true,
    });
    expect(runs[1]!.agent_counts).toEqual(counts({ pass: 1, fail: 1 }));
  });

  it('includes an unfinished run, pages with limit and offset, and knows no unknown agent', () => {
    const support = store.listRunsOfAgent('support');
    expect(support.map((run) => [run.id, run.finished, run.agent_scenarios])).toEqual([
      ['r3', false, 1],
      ['r2', true, 2],
    ]);
    expect(store.listRunsOfAgent('support', { limit: 1, offset: 1 }).map((run) => run.id)).toEqual(['r2']);
    expect(store.listRunsOfAgent('nobody')).toEqual([]);
  });
});
