import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The store's driver helper is test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { useStoreDriver } from '../../../../libs/store/src/test-support/each-driver.js';
import { REPO_ROOT } from '../test-support/example-copy.js';
import { parleyAsync } from '../test-support/parley-process.js';

// The SQLite store is what every other calibrate test uses; this one is the team store's.
describe('parley calibrate with PARLEY_DATABASE_URL (a team store in PostgreSQL)', () => {
  const database = useStoreDriver('postgres');

  it('keeps the judge sessions in PostgreSQL; report and status read them there, with the trend over the team\u2019s sessions', { timeout: 180_000 }, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'parley-calibrate-pg-'));
    cpSync(join(REPO_ROOT, 'calibration'), join(cwd, 'calibration'), { recursive: true, filter: (source) => !source.includes(join('calibration', 'reports')) });
    const env = { PARLEY_DATABASE_URL: database.url! };
    const judged = await parleyAsync(['calibrate', 'judge'], { cwd, env });
    expect(judged.status, judged.stderr).toBe(0);
    expect(judged.stdout).toContain('(replay): 25 items × 2 raters');
    // The session and its 50 ratings are in PostgreSQL. An earlier live session (replays are no
    // trend points) is added there with the same ratings, as another machine of the team would have.
    const { openSql } = await import('@parley/store');
    const sql = openSql(database.path, database.url);
    let replayed: string;
    try {
      const rows = sql.all<{ id: string }>('SELECT id FROM calibration_sessions');
      expect(rows).toHaveLength(1);
      replayed = rows[0]!.id;
      expect(sql.get('SELECT COUNT(*) AS ratings FROM calibration_ratings')).toEqual({ ratings: 50 });
    } finally {
      sql.close();
    }
    const { openCalibrationStore } = await import('@parley/calibration');
    const store = openCalibrationStore(database.path);
    const live = '20261101-090000-11ve00';
    try {
      const session = store.session(replayed)!;
      store.createSession({ ...session, id: live, mode: 'live', started_at: '2026-11-01T09:00:00.000Z', finished_at: '2026-11-01T09:05:00.000Z' });
      for (const rating of store.ratings(replayed)) store.saveRating({ ...rating, session_id: live });
    } finally {
      store.close();
    }

    const report = await parleyAsync(['calibrate', 'report', '--format', 'json'], { cwd, env });
    expect(report.status, report.stderr).toBe(1); // the example's gate fails (cultural appropriateness), as on SQLite
    const json = JSON.parse(report.stdout) as { session: { id: string; selected_by: string; rated: { judge: number } }; trend: Array<{ session_id: string }> };
    expect(json.session).toMatchObject({ id: replayed, selected_by: 'latest_finished', rated: { judge: 25 } });
    expect(json.trend.map((entry) => entry.session_id)).toEqual([replayed, live]);
    const status = await parleyAsync(['calibrate', 'status', '--format', 'json'], { cwd, env });
    expect(JSON.parse(status.stdout)).toMatchObject({ last_session: { id: replayed, ratings: 50 } });
  });
});
