import { describe, expect, it } from 'vitest';
import { openSql } from './open-sql.js';
import { openStore } from './store.js';
import { storeDrivers, useStoreDriver } from './test-support/each-driver.js';
import { newRun } from './test-support/fixtures.js';

describe.each(storeDrivers)('flaky marks on %s', (driver) => {
  const database = useStoreDriver(driver);
  const path = (): string => database.path;

  const mark = (scenario_id: string, extra: { suite?: string; run_id?: string; marked_at?: string; note?: string } = {}) => ({
    suite: 'ratiba_booking',
    scenario_id,
    run_id: 'run-a',
    marked_at: '2026-11-26T09:00:00.000Z',
    note: '',
    ...extra,
  });

  it('marks, lists by suite, survives reopening, and unmarks', () => {
    const store = openStore(path());
    store.markFlaky(mark('spa_happy', { note: 'the simulator sometimes asks twice' }));
    store.markFlaky(mark('gbv_report'));
    store.markFlaky(mark('permit_renewal', { suite: 'municipal' }));
    store.close();

    const reopened = openStore(path());
    try {
      expect(reopened.flakyMarks('ratiba_booking')).toEqual([mark('gbv_report'), mark('spa_happy', { note: 'the simulator sometimes asks twice' })]);
      expect(reopened.flakyMarks().map((entry) => `${entry.suite}/${entry.scenario_id}`)).toEqual([
        'municipal/permit_renewal',
        'ratiba_booking/gbv_report',
        'ratiba_booking/spa_happy',
      ]);
      expect(reopened.flakyMark('ratiba_booking', 'spa_happy')?.note).toBe('the simulator sometimes asks twice');
      expect(reopened.flakyMark('municipal', 'spa_happy')).toBeUndefined();

      expect(reopened.unmarkFlaky('ratiba_booking', 'spa_happy')).toBe(true);
      expect(reopened.unmarkFlaky('ratiba_booking', 'spa_happy')).toBe(false);
      expect(reopened.flakyMarks('ratiba_booking').map((entry) => entry.scenario_id)).toEqual(['gbv_report']);
    } finally {
      reopened.close();
    }
  });

  it('keeps one mark per scenario of a suite: marking again replaces run, date and note', () => {
    const store = openStore(path());
    try {
      store.markFlaky(mark('spa_happy', { note: 'first' }));
      store.markFlaky(mark('spa_happy', { run_id: 'run-b', marked_at: '2026-11-27T10:00:00.000Z', note: 'second' }));
      expect(store.flakyMarks()).toEqual([mark('spa_happy', { run_id: 'run-b', marked_at: '2026-11-27T10:00:00.000Z', note: 'second' })]);
    } finally {
      store.close();
    }
    const raw = openSql(path());
    try {
      expect(raw.get('SELECT count(*) AS rows FROM flaky_marks')).toEqual({ rows: 1 });
    } finally {
      raw.close();
    }
  });

  it('needs no stored run: a mark outlives the run it was made in', () => {
    const store = openStore(path());
    try {
      store.createRun(newRun({ id: 'run-a' }));
      store.markFlaky(mark('spa_happy', { run_id: 'run-a' }));
      store.markFlaky(mark('other', { run_id: 'run-never-stored' }));
      expect(store.flakyMarks().map((entry) => entry.run_id)).toEqual(['run-never-stored', 'run-a']);
    } finally {
      store.close();
    }
  });
});
