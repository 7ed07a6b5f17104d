import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The store's PostgreSQL test server and driver are test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { freshDatabase, type PostgresServer, testPostgresServer } from '../../../../libs/store/src/test-support/postgres-server.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { parseDatabaseUrl } from '../../../../libs/store/src/sql/database-url.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { openPgSync } from '../../../../libs/store/src/sql/pg-sync.js';
import { parleyAsync } from '../test-support/parley-process.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await testPostgresServer();
}, 120_000);
afterAll(() => server?.stop());

/** How many runs the team store holds (0 when init never created its tables). */
function teamRunCount(url: string): number {
  const sql = openPgSync(parseDatabaseUrl(url));
  try {
    const table = sql.get<{ name: string | null }>("SELECT to_regclass('public.runs')::text AS name");
    if (table?.name === null || table?.name === undefined) return 0;
    return Number(sql.get<{ count: string | number }>('SELECT count(*) AS count FROM runs')?.count);
  } finally {
    sql.close();
  }
}

describe('parley init with a team store (PARLEY_DATABASE_URL)', () => {
  it("keeps its starter run out of the team store: no run in PostgreSQL, none in runs list; the scaffold still replays green", async () => {
    const database = await freshDatabase(server);
    try {
      const project = mkdtempSync(join(tmpdir(), 'parley-init-team-'));
      const env = { PARLEY_DATABASE_URL: database.url };
      const init = await parleyAsync(['init', '--yes'], { cwd: project, env });
      expect(init.status, init.stderr).toBe(0);
      expect(init.stdout).toMatch(/wrote {2}recordings\/first_conversation\.jsonl {2}\(starter recording: /);
      expect(teamRunCount(database.url)).toBe(0);
      const listed = await parleyAsync(['runs', 'list', '--format', 'json'], { cwd: project, env });
      expect(listed.status, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([]);

      // The user's own first run is theirs to share: it replays the starter recording and lands in the team store.
      const run = await parleyAsync(['run', '--out', 'reports'], { cwd: project, env: { ...env, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
      expect(run.status, `${run.stderr}${run.stdout}`).toBe(0);
      expect(run.stdout).toContain('replay');
      expect(teamRunCount(database.url)).toBe(1);
    } finally {
      await database.drop();
    }
  }, 120_000);
});
