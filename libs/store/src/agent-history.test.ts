import { afterEach, describe, expect, it } from 'vitest';
import type { ScenarioResult, Status } from '@parley/core';
import { openDatabase } from './open-database.js';
import { openStore, type Store } from './store.js';
import { storeDrivers, useStoreDriver } from './test-support/each-driver.js';
import { errorResult, failingResult, newRun, passingResult, runFinish } from './test-support/fixtures.js';

function result(scenarioId: string, agent: string, status: Status): ScenarioResult {
  const base = status === 'error' ? errorResult(scenarioId) : status === 'fail' ? failingResult(scenarioId) : passingResult(scenarioId);
  return { ...base, agent, status };
}

/** A run `id` of `suite` started at minute `minute`, with the given results. */
function addRun(store: Store, id: string, minute: number, results: ScenarioResult[], suite = 'ratiba_booking'): void {
  const started_at = `2026-11-26T12:${String(minute).padStart(2, '0')}:00.000Z`;
  store.createRun(newRun({ id, suite, started_at }));
  store.saveScenarioResults(id, results);
  store.finishRun(id, runFinish());
}

let store: Store | undefined;
afterEach(() => store?.close());

describe.each(storeDrivers)('agent history on %s', (driver) => {
  const database = useStoreDriver(driver);

  it("counts each agent's scenario statuses per run, newest run first", () => {
    store = openStore(database.path);
    addRun(store, 'run-1', 1, [result('a', 'booking', 'pass'), result('b', 'booking', 'fail'), result('c', 'frontdesk', 'pass')]);
    addRun(store, 'run-2', 2, [result('a', 'booking', 'pass'), result('b', 'booking', 'pass'), result('c', 'frontdesk', 'error')]);
    // A repetition (attempt 1) is not a reported result and must not count.
    store.saveScenarioResult('run-2', result('a', 'booking', 'fail'), 1);

    const history = store.agentHistory();

    expect([...history.keys()].sort()).toEqual(['booking', 'frontdesk']);
    expect(history.get('booking')).toEqual([
      { run_id: 'run-2', started_at: '2026-11-26T12:02:00.000Z', scenarios: 2, pass: 2, warn: 0, flaky: 0, fail: 0, error: 0, skipped: 0 },
      { run_id: 'run-1', started_at: '2026-11-26T12:01:00.000Z', scenarios: 2, pass: 1, warn: 0, flaky: 0, fail: 1, error: 0, skipped: 0 },
    ]);
    expect(history.get('frontdesk')?.map((run) => [run.run_id, run.pass, run.error])).toEqual([
      ['run-2', 0, 1],
      ['run-1', 1, 0],
    ]);
  });

  it('keeps at most perAgent runs per agent and only the runs of the suite asked for', () => {
    store = openStore(database.path);
    for (let minute = 1; minute <= 5; minute += 1) addRun(store, `run-${minute}`, minute, [result('a', 'booking', 'pass')]);
    addRun(store, 'other-1', 9, [result('x', 'booking', 'fail'), result('y', 'elsewhere', 'pass')], 'other_suite');

    const history = store.agentHistory({ suite: 'ratiba_booking', perAgent: 3 });

    expect([...history.keys()]).toEqual(['booking']);
    expect(history.get('booking')?.map((run) => run.run_id)).toEqual(['run-5', 'run-4', 'run-3']);
    expect(store.agentHistory({ perAgent: 1 }).get('booking')?.map((run) => run.run_id)).toEqual(['other-1']);
  });

  it('finds agents older than the scanned window through the agent index, with the same answer', () => {
    store = openStore(database.path);
    addRun(store, 'run-1', 1, [result('old', 'retired', 'fail'), result('a', 'booking', 'pass')]);
    addRun(store, 'run-2', 2, [result('old', 'retired', 'pass'), result('a', 'booking', 'pass')]);
    for (let minute = 3; minute <= 8; minute += 1) addRun(store, `run-${minute}`, minute, [result('a', 'booking', 'pass')]);
    addRun(store, 'elsewhere-1', 0, [result('z', 'not_in_suite', 'pass')], 'other_suite');

    const full = store.agentHistory({ suite: 'ratiba_booking', perAgent: 4, scanRuns: 1000 });
    const windowed = store.agentHistory({ suite: 'ratiba_booking', perAgent: 4, scanRuns: 2, agents: ['booking', 'retired', 'never_ran'] });

    expect(windowed.get('retired')?.map((run) => [run.run_id, run.pass, run.fail])).toEqual([
      ['run-2', 1, 0],
      ['run-1', 0, 1],
    ]);
    expect(windowed).toEqual(full);
    expect(windowed.has('not_in_suite')).toBe(false);
    expect(windowed.has('never_ran')).toBe(false);
    // Without a list, every agent name of the store is looked up; of another suite's none is kept.
    expect(store.agentHistory({ suite: 'ratiba_booking', perAgent: 4, scanRuns: 2 })).toEqual(full);
    // An agent left off the list keeps only what the window holds.
    expect(store.agentHistory({ suite: 'ratiba_booking', perAgent: 4, scanRuns: 2, agents: ['booking'] }).has('retired')).toBe(false);
  });

  it('is empty for an empty store', () => {
    store = openStore(database.path);
    expect(store.agentHistory({ suite: 'ratiba_booking' }).size).toBe(0);
  });

  it('gives the newest reported status of each of an agent\'s scenarios over the runs asked for', () => {
    store = openStore(database.path);
    addRun(store, 'run-1', 1, [result('a', 'booking', 'fail'), result('b', 'booking', 'pass'), result('c', 'frontdesk', 'fail')]);
    addRun(store, 'run-2', 2, [result('a', 'booking', 'pass')]);
    addRun(store, 'run-3', 3, [result('b', 'booking', 'error')]);
    store.saveScenarioResult('run-2', result('b', 'booking', 'fail'), 1);

    expect(store.latestScenarioStatuses('booking', ['run-1', 'run-2'])).toEqual(new Map([['a', 'pass'], ['b', 'pass']]));
    expect(store.latestScenarioStatuses('booking', ['run-3', 'run-1', 'run-2'])).toEqual(new Map([['b', 'error'], ['a', 'pass']]));
    expect(store.latestScenarioStatuses('frontdesk', ['run-2', 'run-3'])).toEqual(new Map());
    expect(store.latestScenarioStatuses('booking', [])).toEqual(new Map());
  });
});

// SQLite only: the query plans checked are SQLite's (PostgreSQL's planner picks by its statistics).
describe('agent history on sqlite', () => {
  it('reads the agent lookups from the agent index, not from the result rows', () => {
    const database = openDatabase(':memory:');
    const plan = (sql: string) =>
      database
        .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => row.detail)
        .join('\n');
    expect(plan(`SELECT min(agent) FROM scenario_results WHERE agent > 'a'`)).toContain('scenario_results_by_agent');
    expect(plan(`SELECT run_id, status FROM scenario_results WHERE agent = 'a' AND attempt = 0`)).toContain(
      'COVERING INDEX scenario_results_by_agent',
    );
    database.close();
  });
});
