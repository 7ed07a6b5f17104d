import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { replayFloor } from './replay-floor.js';
import { assertEveryScenarioPassed } from './replay-report-check.js';
import { writeSyntheticSuite } from './synthetic-suite.js';

describe('the replay floor', () => {
  it('reads every scenario and recording of a suite, writes one SQLite row each in one database and a passing report', () => {
    const work = mkdtempSync(join(tmpdir(), 'parley-floor-'));
    const suite = writeSyntheticSuite({ dir: join(work, 'suite'), scenarioCount: 3 });
    const out = join(work, 'out');
    expect(replayFloor(suite.dir, out)).toBe(3);
    assertEveryScenarioPassed(join(out, 'report.json'), suite.scenarioIds);
    const SqliteDatabase = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
    const database = new SqliteDatabase(join(out, 'floor.db'), { readonly: true });
    const rows = database.prepare('SELECT scenario_id, result FROM results ORDER BY scenario_id').all() as Array<{ scenario_id: string; result: string }>;
    database.close();
    expect(rows.map((row) => row.scenario_id)).toEqual([...suite.scenarioIds].sort());
    // Every recorded call was parsed: 7 agent calls per synthetic scenario, the last with its answer.
    for (const row of rows) expect(JSON.parse(row.result)).toMatchObject({ status: 'pass', calls: 7, answer_chars: expect.any(Number) });
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { results: Array<{ answer_chars: number }> };
    expect(report.results.every((result) => result.answer_chars > 0)).toBe(true);
  });
});
