import { appendFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The store's PostgreSQL test server is test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { freshDatabase, type PostgresServer, testPostgresServer } from '../../../libs/store/src/test-support/postgres-server.js';
import { parleyAsync } from './test-support/parley-process.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await testPostgresServer();
}, 120_000);
afterAll(() => server?.stop());

describe("reading commands in a suite folder whose parley.yaml names the team store (settings.store.url_env)", () => {
  it('read the store `run` wrote there, without PARLEY_DATABASE_URL; with the named variable unset they stop naming it', async () => {
    const database = await freshDatabase(server);
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'parley-folder-store-'));
      expect((await parleyAsync(['init'], { cwd })).status).toBe(0);
      appendFileSync(join(cwd, 'parley.yaml'), 'settings:\n  store: { url_env: TEAM_STORE_URL }\n');
      const env = { TEAM_STORE_URL: database.url };
      const run = await parleyAsync(['run', '--format', 'json'], { cwd, env });
      expect(run.status, run.stderr).toBe(0);
      const runId = (JSON.parse(run.stdout) as { run_id: string }).run_id;
      expect(existsSync(join(cwd, '.parley', 'parley.db'))).toBe(false);

      const list = await parleyAsync(['runs', 'list'], { cwd, env });
      expect(list.status, list.stderr).toBe(0);
      expect(list.stdout).toContain(runId);
      const show = await parleyAsync(['runs', 'show', runId], { cwd, env });
      expect(show.status, show.stderr).toBe(0);
      const cost = await parleyAsync(['cost'], { cwd, env });
      expect(cost.stdout).toContain('over 1 run');

      const unset = await parleyAsync(['runs', 'list'], { cwd });
      expect(unset.status).toBe(2);
      expect(unset.stderr).toContain("parley.yaml's settings.store.url_env names TEAM_STORE_URL, which is not set");
      expect(existsSync(join(cwd, '.parley', 'parley.db'))).toBe(false);
    } finally {
      await database.drop();
    }
  }, 180_000);
});
