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

/** One command of the walk: its arguments, and what it printed with run ids, times and folders made alike. */
interface Step {
  args: string[];
  status: number;
  stdout: string;
}

/**
 * Replaces what differs between two walks of the same commands and nothing else: run ids (and
 * their prefixes), ISO times and dates, durations, the temporary suite folder.
 */
function alike(text: string, suite: string, runIds: readonly string[]): string {
  let out = text.split(suite).join('<suite>');
  runIds.forEach((id, index) => {
    out = out.split(id).join(`<run${index}>`);
  });
  return out
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?/g, '<time>')
    .replace(/"(duration_ms|latency_ms)": \d+/g, '"$1": <ms>')
    .replace(/"(conversation_id|tenant)": "[^"]*"/g, '"$1": <id>')
    .replace(/\b\d+(\.\d+)?\s?(ms|s)\b/g, '<dur>');
}

/**
 * The commands a team runs against its store, in one fresh copy of the gate suite against
 * fake-llm: record, replay with --repeat, two shards and their merge, the history (list, show,
 * prune --dry-run), compare, cost, the judge cache (stats, clear), a baseline written and gated
 * on, `--last-failed`. `url` set: every process gets PARLEY_DATABASE_URL.
 */
async function walk(url: string | undefined): Promise<{ suite: string; steps: Step[]; runIds: string[] }> {
  const fake = await startFakeLlm({ script: GATE_FAKE_SCRIPT });
  const suite = writeSuite(GATE_SUITE_FILES);
  const env = { ...(url === undefined ? {} : { PARLEY_DATABASE_URL: url }), OPENAI_API_KEY: 'sk-test-WALK-0123456789', OPENAI_BASE_URL: fake.openaiBaseUrl };
  const steps: Step[] = [];
  const runIds: string[] = [];
  const parley = async (args: string[]): Promise<Step> => {
    const done = await parleyAsync(args, { cwd: suite, env });
    const step = { args, status: done.status ?? -1, stdout: done.stdout };
    steps.push(step);
    return step;
  };
  const runId = (folder: string): string => {
    const id = (JSON.parse(readFileSync(join(suite, folder, 'report.json'), 'utf8')) as { run_id: string }).run_id;
    runIds.push(id);
    return id;
  };
  try {
    await parley(['run', '.', '--mode', 'record', '--out', 'out/record', '--export-baseline', 'baseline.json']);
    const record = runId('out/record');
    await parley(['run', '.', '--repeat', '2', '--out', 'out/repeat']);
    const repeat = runId('out/repeat');
    await parley(['run', '.', '--shard', '1/2', '--out', 'out/shard-1']);
    runId('out/shard-1');
    await parley(['run', '.', '--shard', '2/2', '--out', 'out/shard-2']);
    runId('out/shard-2');
    await parley(['merge-reports', 'out/shard-1', 'out/shard-2', '--out', 'out/merged']);
    runId('out/merged');
    await parley(['run', '.', '--baseline', 'baseline.json', '--out', 'out/gated']);
    runId('out/gated');
    await parley(['run', '.', '--last-failed', '--out', 'out/last-failed']);
    runId('out/last-failed');
    await parley(['runs', 'list', '--format', 'json']);
    await parley(['runs', 'show', record, '--format', 'json']);
    await parley(['compare', record, repeat, '--format', 'json']);
    await parley(['cost', '--format', 'json']);
    await parley(['cache', 'stats', '--format', 'json']);
    await parley(['cache', 'clear']);
    await parley(['runs', 'prune', '--dry-run']);
    return { suite, steps, runIds };
  } finally {
    await fake.close();
  }
}

describe('the commands a team uses, on a team store in PostgreSQL', () => {
  it('print what they print on SQLite (apart from run ids and times) and never create .parley/parley.db', async () => {
    const database = await freshDatabase(server);
    try {
      const onSqlite = await walk(undefined);
      expect(existsSync(join(onSqlite.suite, '.parley', 'parley.db'))).toBe(true);
      const onPostgres = await walk(database.url);
      expect(existsSync(join(onPostgres.suite, '.parley', 'parley.db'))).toBe(false);
      const shown = (side: typeof onSqlite) => side.steps.map((step) => ({ args: alike(step.args.join(' '), side.suite, side.runIds), status: step.status, stdout: alike(step.stdout, side.suite, side.runIds) }));
      const sqliteSteps = shown(onSqlite);
      // Each command did its work on SQLite (a walk that failed everywhere would compare equal too).
      expect(sqliteSteps.map((step) => step.status)).toEqual(sqliteSteps.map(() => 0));
      const output = (command: string) => JSON.parse(onSqlite.steps.find((step) => step.args.join(' ').startsWith(command))!.stdout) as Record<string, unknown>;
      expect((output('runs list') as unknown as unknown[]).length).toBe(7);
      expect(output('cost').runs).toBe(7);
      expect(output('cache stats')).toHaveProperty('hits', 0);
      expect(sqliteSteps.at(-1)!.stdout).toBe('suite gate_demo: nothing to remove (7 runs in the history, all within settings.history)\n');
      expect(shown(onPostgres)).toEqual(sqliteSteps);
    } finally {
      await database.drop();
    }
  }, 240_000);
});
