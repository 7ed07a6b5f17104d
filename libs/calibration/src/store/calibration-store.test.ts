import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrations, openDatabase, schemaVersion } from '@parley/store';
import { describe, expect, it } from 'vitest';
import { modelRatings, ratedSet, session } from '../test-support/report-fixture.js';
import { openCalibrationStore } from './calibration-store.js';

function databasePath(): string {
  return join(mkdtempSync(join(tmpdir(), 'parley-calibration-store-')), '.parley', 'parley.db');
}

describe('openCalibrationStore', () => {
  it('keeps sessions per calibration folder and their ratings, across reopening', () => {
    const path = databasePath();
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
