import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm } from '@parley/fake-llm';
// The store's PostgreSQL test server is test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { freshDatabase, type PostgresServer, testPostgresServer } from '../../../libs/store/src/test-support/postgres-server.js';
import { GATE_FAKE_SCRIPT, GATE_SUITE_FILES, writeSuite } from './test-support/gate-suite.js';
import { parleyAsync } from './test-support/parley-process.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await testPostgresServer();
}, 120_000);
afterAll(() => server?.stop());

interface ReportJson {
  run_id: string;
  status: string;
  results: Array<{ scenario_id: string; status: string }>;
}

describe('parley run with PARLEY_DATABASE_URL (a team store in PostgreSQL)', () => {
  it('records against fake-llm and replays, writing both runs and their results to PostgreSQL; other processes list and show them; no .parley/parley.db', async () => {
    const database = await freshDatabase(server);
    const fake = await startFakeLlm({ script: GATE_FAKE_SCRIPT });
    try {
      const suite = writeSuite(GATE_SUITE_FILES);
      const env = { PARLEY_DATABASE_URL: database.url };
      const recorded = await parleyAsync(['run', '.', '--mode', 'record', '--out', 'record-run'], {
        cwd: suite,
        env: { ...env, OPENAI_API_KEY: 'sk-test-TEAM-0123456789', OPENAI_BASE_URL: fake.openaiBaseUrl },
      });
      // Only the advisory smalltalk fails: exit 0.
      expect(recorded.stderr).not.toMatch(/error/);
      expect(recorded.status, recorded.stderr).toBe(0);
      const replayed = await parleyAsync(['run', '.', '--out', 'replay-run'], { cwd: suite, env });
      expect(replayed.status, replayed.stderr).toBe(0);
      expect(fake.requests.filter((request) => request.api !== 'control').length).toBeGreaterThan(0);

      const record = JSON.parse(readFileSync(join(suite, 'record-run', 'report.json'), 'utf8')) as ReportJson;
      const replay = JSON.parse(readFileSync(join(suite, 'replay-run', 'report.json'), 'utf8')) as ReportJson;
      const list = await parleyAsync(['runs', 'list', '--format', 'json'], { cwd: suite, env });
      expect(list.status).toBe(0);
      const runs = JSON.parse(list.stdout) as Array<{ id: string; mode: string; scenario_count: number; status: string }>;
      expect(runs.map((run) => [run.id, run.mode, run.scenario_count, run.status])).toEqual([
        [replay.run_id, 'replay', 4, replay.status],
        [record.run_id, 'record', 4, record.status],
      ]);

      const show = await parleyAsync(['runs', 'show', replay.run_id.slice(0, -1), '--format', 'json'], { cwd: suite, env });
      expect(show.status).toBe(0);
      const shown = JSON.parse(show.stdout) as { run: { id: string }; results: ReportJson['results'] };
      expect(shown.run.id).toBe(replay.run_id);
      expect(shown.results.map((result) => [result.scenario_id, result.status]).sort()).toEqual(
        replay.results.map((result) => [result.scenario_id, result.status]).sort(),
      );

      // An id the team store lacks is named as missing from the team store, not from a local file.
      const shownUrl = `the team store ${new URL(database.url).href}`;
      const resume = await parleyAsync(['run', '--resume', 'nope'], { cwd: suite, env });
      expect(resume.status).toBe(2);
      expect(resume.stderr).toContain(`--resume nope: no such run in ${shownUrl} (see parley runs list)`);
      const fromRun = await parleyAsync(['calibrate', 'import', '--from-run', 'nope'], { cwd: suite, env });
      expect(fromRun.status).toBe(2);
      expect(fromRun.stderr).toContain(`no run "nope" in ${shownUrl}`);

      // The history is in PostgreSQL only: this folder has the run folders, and no database file.
      expect(existsSync(join(suite, '.parley', 'parley.db'))).toBe(false);
      expect(existsSync(join(suite, 'replay-run', 'report.json'))).toBe(true);
      const withoutUrl = await parleyAsync(['runs', 'list'], { cwd: suite });
      expect(withoutUrl.stdout).toBe('no runs yet: start one with `parley run <suite>`\n');
      const showWithoutUrl = await parleyAsync(['runs', 'show', replay.run_id], { cwd: suite });
      expect(showWithoutUrl.status).toBe(2);
      expect(showWithoutUrl.stderr).toContain(`no run with id "${replay.run_id}"`);
      // Reading without the URL leaves no empty local database behind.
      expect(existsSync(join(suite, '.parley', 'parley.db'))).toBe(false);
    } finally {
      await fake.close();
      await database.drop();
    }
  }, 180_000);

  it('stops with exit 2 before running when the team store cannot be reached, naming the server without its password', async () => {
    const suite = writeSuite(GATE_SUITE_FILES);
    const run = await parleyAsync(['run', '.', '--out', 'never'], { cwd: suite, env: { PARLEY_DATABASE_URL: 'postgres://parley:hunter2-secret@127.0.0.1:9/parley' } });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('cannot connect to the PostgreSQL store postgres://parley:***@127.0.0.1:9/parley');
    expect(run.stderr).not.toContain('hunter2');
    expect(run.stderr).not.toContain('.parley/parley.db');
    expect(existsSync(join(suite, 'never'))).toBe(false);
    expect(existsSync(join(suite, '.parley', 'parley.db'))).toBe(false);
  }, 60_000);
});
