import { isConfigError } from '@parley/core';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './open-database.js';
import { openSql } from './open-sql.js';
import { sqliteSync } from './sql/sqlite-sync.js';
import type { SqlValue, SyncSql } from './sql/sync-sql.js';
import { copyStore } from './store-copy.js';
import { useStoreDriver } from './test-support/each-driver.js';
import { everyRow, fillEveryTable, storeTables } from './test-support/every-table.js';
import { thrownBy } from './test-support/thrown-by.js';

function localStore(path: string): SyncSql {
  return sqliteSync(openDatabase(path), path);
}

describe('copying a store between the local file and PostgreSQL', () => {
  const database = useStoreDriver('postgres');

  it('copies every table to PostgreSQL and back, row for row (pages and multi-row inserts of 620 rows a table)', () => {
    const local = localStore(database.path);
    const team = openSql(database.path, database.url);
    const back = localStore(join(database.folder, 'back', 'parley.db'));
    try {
      fillEveryTable(local, 620);
      const tables = storeTables(local);
      expect(tables).toEqual(expect.arrayContaining(['runs', 'scenario_results', 'metric_scores', 'judge_cache', 'calibration_sessions', 'calibration_ratings', 'monitor_conversations', 'monitor_scores', 'outbox', 'judge_spend']));
      const seen: string[] = [];
      const there = copyStore(local, team, { onTable: (done, index, total) => seen.push(`${index + 1}/${total} ${done.table}`) });
      expect(there.copied).toBe(620 * tables.length);
      expect(there.kept).toBe(0);
      // Parents first: a run before its results, a result before its scores.
      const order = there.tables.map((table) => table.table);
      expect(order.indexOf('runs')).toBeLessThan(order.indexOf('scenario_results'));
      expect(order.indexOf('scenario_results')).toBeLessThan(order.indexOf('metric_scores'));
      expect(seen).toHaveLength(tables.length);
      expect(everyRow(team, tables)).toEqual(everyRow(local, tables));

      const home = copyStore(team, back);
      expect(home.copied).toBe(620 * tables.length);
      expect(everyRow(back, tables)).toEqual(everyRow(local, tables));
    } finally {
      local.close();
      team.close();
      back.close();
    }
  });

  it('refuses a target that holds rows, writing nothing; with merge keeps the rows it has and adds the others', () => {
    const local = localStore(database.path);
    const team = openSql(database.path, database.url);
    try {
      fillEveryTable(local, 6);
      const tables = storeTables(local);
      team.run(
        "INSERT INTO runs (id, suite, mode, started_at, parley_version, options_json, out_dir) VALUES ('id 0 ''single'' \"double\" ü ñ 😀', 'theirs', 'live', 'then', '9', '{}', '/elsewhere')",
      );
      const spend = local.get('SELECT * FROM judge_spend ORDER BY calls LIMIT 1')!;
      team.run(`INSERT INTO judge_spend (${Object.keys(spend).join(', ')}) VALUES (${Object.keys(spend).map(() => '?').join(', ')})`, Object.values(spend) as SqlValue[]);
      const before = everyRow(team, tables);
      const refused = thrownBy(() => copyStore(local, team)) as Error;
      expect(isConfigError(refused)).toBe(true);
      expect(refused.message).toMatch(/already holds rows \(.*runs.*\): copy into an empty store, or pass --merge/);
      expect(everyRow(team, tables)).toEqual(before);

      const merged = copyStore(local, team, { merge: true });
      // The run whose id the target had is the target's still; the judge_spend row equal to one of its own is not added again.
      expect(team.get<{ suite: string }>("SELECT suite FROM runs WHERE id LIKE 'id 0 %'")?.suite).toBe('theirs');
      expect(merged.tables.find((table) => table.table === 'runs')).toMatchObject({ rows: 6, copied: 5, kept: 1 });
      expect(merged.tables.find((table) => table.table === 'judge_spend')).toMatchObject({ rows: 6, copied: 5, kept: 1 });
      expect(team.get<{ count: number }>('SELECT COUNT(*) AS count FROM judge_spend')?.count).toBe(6);
      // Merging again adds nothing.
      expect(copyStore(local, team, { merge: true }).copied).toBe(0);
    } finally {
      local.close();
      team.close();
    }
  });

  it('leaves the target as it was when the copy stops midway', () => {
    const local = localStore(database.path);
    const team = openSql(database.path, database.url);
    try {
      fillEveryTable(local, 20);
      const tables = storeTables(local);
      const stop = thrownBy(() =>
        copyStore(local, team, {
          onTable: (_done, index) => {
            if (index === Math.floor(tables.length / 2)) throw new Error('stopped midway');
          },
        }),
      ) as Error;
      expect(stop.message).toBe('stopped midway');
      for (const rows of Object.values(everyRow(team, tables))) expect(rows).toEqual([]);
      // And the copy can then be made whole.
      expect(copyStore(local, team).copied).toBe(20 * tables.length);
    } finally {
      local.close();
      team.close();
    }
  });
});
