import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrations, openDatabase, schemaVersion } from '@parley/store';
import { describe, expect, it } from 'vitest';
// The store's driver helper is test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { storeDrivers, useStoreDriver } from '../../../store/src/test-support/each-driver.js';
import { modelRatings, ratedSet, session } from '../test-support/report-fixture.js';
import { openCalibrationStore } from './calibration-store.js';

function databasePath(): string {
  return join(mkdtempSync(join(tmpdir(), 'parley-calibration-store-')), '.parley', 'parley.db');
}

describe.each(storeDrivers)('openCalibrationStore on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('keeps sessions per calibration folder and their ratings, across reopening', () => {
    const path = database.path;
    const set = ratedSet({ 'rev-a': [[4, 4, 4], [2, 3, 1]] });
    const store = openCalibrationStore(path);
    store.createSession(session('20261102-090000-aaaaaa', { started_at: '2026-11-02T09:00:00.000Z', finished_at: null }));
    store.createSession(session('20261207-090000-bbbbbb', { started_at: '2026-12-07T09:00:00.000Z' }));
    store.createSession(session('20261207-100000-cccccc', { set_path: 'other/calibration' }));
    const ratings = modelRatings(set, '20261207-090000-bbbbbb', 'judge', [[4, 5, 4], undefined]);
    for (const rating of ratings) store.saveRating(rating);
    store.finishSession('20261102-090000-aaaaaa', '2026-11-02T09:10:00.000Z');
    store.close();

    const reopened = openCalibrationStore(path);
    try {
      expect(reopened.sessions('calibration').map((stored) => [stored.id, stored.finished_at])).toEqual([
        ['20261207-090000-bbbbbb', '2026-12-07T09:05:00.000Z'],
        ['20261102-090000-aaaaaa', '2026-11-02T09:10:00.000Z'],
      ]);
      expect(reopened.ratings('20261207-090000-bbbbbb')).toEqual(ratings);
      expect(reopened.session('20261102')?.id).toBe('20261102-090000-aaaaaa');
      expect(() => reopened.session('20261207')).toThrow(/ambiguous: it matches 20261207-090000-bbbbbb, 20261207-100000-cccccc/);
      expect(reopened.session('2025')).toBeUndefined();
    } finally {
      reopened.close();
    }
  });

  it('replaces a rating saved again, and marks a session interrupted until it is resumed or finished', () => {
    const set = ratedSet({ 'rev-a': [[4, 4, 4], [2, 3, 1]] });
    const store = openCalibrationStore(database.path);
    try {
      store.createSession(session('20261207-090000-bbbbbb', { started_at: '2026-12-07T09:00:00.000Z', finished_at: null }));
      store.createSession(session('20261207-090000-dddddd', { started_at: '2026-12-07T09:00:00.000Z', finished_at: null }));
      const [first, second] = modelRatings(set, '20261207-090000-bbbbbb', 'judge', [[4, 5, 4], [1, 2, 3]]);
      const failed = { ...first!, scores: null, error: 'timeout', cached: true, cost_usd: null };
      store.saveRating(first!);
      store.saveRating(failed);
      store.saveRating(second!);
      expect(store.ratings('20261207-090000-bbbbbb')).toEqual([failed, second]);
      store.interruptSession('20261207-090000-bbbbbb', 'SIGINT');
      expect(store.session('20261207-090000-bbbbbb')?.interrupted_by).toBe('SIGINT');
      store.resumeSession('20261207-090000-bbbbbb');
      expect(store.session('20261207-090000-bbbbbb')?.interrupted_by).toBeNull();
      store.interruptSession('20261207-090000-bbbbbb', 'SIGTERM');
      store.finishSession('20261207-090000-bbbbbb', '2026-12-07T09:30:00.000Z');
      expect(store.session('20261207-090000-bbbbbb')).toMatchObject({ interrupted_by: null, finished_at: '2026-12-07T09:30:00.000Z' });
      // Two sessions started in the same millisecond: newest id first, on either database.
      expect(store.sessions('calibration').map((stored) => stored.id)).toEqual(['20261207-090000-dddddd', '20261207-090000-bbbbbb']);
      expect(store.sessions('calibration', 1).map((stored) => stored.id)).toEqual(['20261207-090000-dddddd']);
    } finally {
      store.close();
    }
  });
});

// SQLite only: it checks the SQLite schema's own step list and catalogue (pg-migrations.test.ts
// compares PostgreSQL's tables with these).
describe('the calibration tables in SQLite', () => {
  it('lives in the schema step appended for it', () => {
    const database = openDatabase(databasePath());
    try {
      expect(schemaVersion(database)).toBe(migrations.length);
      expect(migrations.map((step) => step.description)).toContain('calibration sessions and their judge ratings');
      const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'calibration_%' ORDER BY name").all();
      expect(tables).toEqual([{ name: 'calibration_ratings' }, { name: 'calibration_sessions' }]);
    } finally {
      database.close();
    }
  });
});
