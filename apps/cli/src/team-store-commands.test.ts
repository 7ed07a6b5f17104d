import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm } from '@parley/fake-llm';
// The store's PostgreSQL test server is test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { freshDatabase, type PostgresServer, testPostgresServer } from '../../../libs/store/src/test-support/postgres-server.js';
import { writeCanaryLog } from './test-support/canary-log.js';
import { GATE_FAKE_SCRIPT, GATE_SUITE_FILES, writeSuite } from './test-support/gate-suite.js';
import { MONITORED_SUITE } from './test-support/monitored-suite.js';
import { REPO_ROOT } from './test-support/example-copy.js';
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
 * their prefixes), ISO times and dates, durations, the temporary suite folder, the store's name.
 */
function alike(text: string, suite: string, runIds: readonly string[], url?: string): string {
  let out = text.split(suite).join('<suite>');
  // Where the store is named (cache stats): the local file on SQLite, the URL on PostgreSQL.
  if (url !== undefined) out = out.split(url).join('.parley/parley.db');
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
 * on, `--last-failed`, an export left pending in the outbox and `export --flush`. `url` set: every process gets PARLEY_DATABASE_URL.
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
    // Port 9 is one fetch refuses at once: the export fails fast and waits in the store's outbox.
    await parley(['run', '.', '--out', 'out/exported', '--export', 'otlp=http://127.0.0.1:9']);
    runId('out/exported');
    await parley(['export', '--flush', '--to', 'otlp=http://127.0.0.1:9']);
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


/**
 * What a scheduled production job runs against the store: `parley monitor` judging a log (fake-llm
 * as the judge), again (nothing new to judge), `canary compare` reading monitor's scores, `cost`.
 */
async function productionWalk(url: string | undefined): Promise<{ suite: string; steps: Step[]; runIds: string[] }> {
  const llm = await startFakeLlm({ script: { rules: [], fallback: { content: JSON.stringify({ score: 4, reason: 'Clear answer.' }), usage: { input_tokens: 1000, output_tokens: 40 } } } });
  const suite = writeSuite(MONITORED_SUITE);
  // A canary log: 30 conversations on v1 (1 👎), 10 on v2 (3 👎).
  writeCanaryLog(suite, [{ version: 'v1', count: 30, negative: 1 }, { version: 'v2', count: 10, negative: 3 }]);
  const env = { ...(url === undefined ? {} : { PARLEY_DATABASE_URL: url }), OPENAI_API_KEY: 'sk-test-WALK-0123456789', OPENAI_BASE_URL: llm.openaiBaseUrl };
  const steps: Step[] = [];
  try {
    for (const args of [
      ['monitor', '--logs', 'conversations.jsonl', '--sample', '100', '--format', 'json'],
      ['monitor', '--logs', 'conversations.jsonl', '--sample', '100', '--format', 'json'],
      ['canary', 'compare', '--logs', 'conversations.jsonl', '--feedback', 'feedback.jsonl', '--stable', 'v1', '--canary', 'v2', '--format', 'json'],
      ['cost', '--format', 'json'],
    ]) {
      const done = await parleyAsync(args, { cwd: suite, env });
      steps.push({ args, status: done.status ?? -1, stdout: done.stdout });
    }
    return { suite, steps, runIds: [] };
  } finally {
    await llm.close();
  }
}

/** Judge calibration on the repository's set (replayed: no model calls): judge, report, status. */
async function calibrationWalk(url: string | undefined): Promise<{ suite: string; steps: Step[]; runIds: string[] }> {
  const cwd = mkdtempSync(join(tmpdir(), 'parley-walk-calibrate-'));
  cpSync(join(REPO_ROOT, 'calibration'), join(cwd, 'calibration'), { recursive: true, filter: (source) => !source.includes(join('calibration', 'reports')) });
  const env = url === undefined ? {} : { PARLEY_DATABASE_URL: url };
  const steps: Step[] = [];
  for (const args of [['calibrate', 'judge'], ['calibrate', 'report', '--format', 'json'], ['calibrate', 'status', '--format', 'json']]) {
    const done = await parleyAsync(args, { cwd, env });
    steps.push({ args, status: done.status ?? -1, stdout: done.stdout });
  }
  const session = (JSON.parse(steps[1]!.stdout) as { session: { id: string } }).session.id;
  return { suite: cwd, steps, runIds: [session] };
}

describe('the commands a team uses, on a team store in PostgreSQL', () => {
  it('print what they print on SQLite (apart from run ids and times) and never create .parley/parley.db', async () => {
    const database = await freshDatabase(server);
    try {
      const onSqlite = await walk(undefined);
      expect(existsSync(join(onSqlite.suite, '.parley', 'parley.db'))).toBe(true);
      const onPostgres = await walk(database.url);
      expect(existsSync(join(onPostgres.suite, '.parley', 'parley.db'))).toBe(false);
      // Runs that started in the same millisecond (a merge and its shards) are listed by id, which is random: compare the list as a set.
      const listed = (stdout: string, side: typeof onSqlite) =>
        (JSON.parse(stdout) as unknown[]).map((run) => alike(JSON.stringify(run, null, 2), side.suite, side.runIds)).sort().join('\n');
      const shown = (side: typeof onSqlite, url?: string) =>
        side.steps.map((step) => ({
          args: alike(step.args.join(' '), side.suite, side.runIds),
          status: step.status,
          stdout: step.args.join(' ') === 'runs list --format json' ? listed(step.stdout, side) : alike(step.stdout, side.suite, side.runIds, url),
        }));
      const sqliteSteps = shown(onSqlite);
      expect(onPostgres.steps.find((step) => step.args.join(' ') === 'cache stats --format json')!.stdout).toContain(`"path": "${database.url}"`);
      // Each command did its work on SQLite (a walk that failed everywhere would compare equal too).
      expect(sqliteSteps.map((step) => step.status)).toEqual(sqliteSteps.map((step) => (step.args.startsWith('export --flush') ? 1 : 0)));
      expect(onSqlite.steps.find((step) => step.args[0] === 'export')!.stdout).toBe('1 pending export to otlp http://127.0.0.1:9/v1/traces\n');
      const output = (command: string) => JSON.parse(onSqlite.steps.find((step) => step.args.join(' ').startsWith(command))!.stdout) as Record<string, unknown>;
      expect(onSqlite.steps.find((step) => step.args[0] === 'runs' && step.args[1] === 'list')!.stdout.match(/"id": /g)).toHaveLength(8);
      expect(output('cost').runs).toBe(8);
      expect(output('cache stats')).toHaveProperty('hits', 0);
      expect(sqliteSteps.at(-1)!.stdout).toBe('suite gate_demo: nothing to remove (8 runs in the history, all within settings.history)\n');
      expect(shown(onPostgres, database.url)).toEqual(sqliteSteps);
    } finally {
      await database.drop();
    }
  }, 240_000);

  it('monitor, canary compare and cost of a production job print the same on both and never create .parley/parley.db', async () => {
    const database = await freshDatabase(server);
    try {
      const onSqlite = await productionWalk(undefined);
      const onPostgres = await productionWalk(database.url);
      expect(existsSync(join(onPostgres.suite, '.parley', 'parley.db'))).toBe(false);
      const shown = (side: typeof onSqlite) => side.steps.map((step) => ({ args: step.args.join(' '), status: step.status, stdout: alike(step.stdout, side.suite, side.runIds) }));
      // 40 judged, then none; the canary's 30 % 👎 against 3 % rolls back (exit 1), its metric read from monitor's scores.
      expect(onSqlite.steps.map((step) => step.status)).toEqual([0, 0, 1, 0]);
      expect((JSON.parse(onSqlite.steps[2]!.stdout) as { metrics: Array<{ metric: string }> }).metrics.map((metric) => metric.metric)).toContain('service_quality');
      expect(shown(onPostgres)).toEqual(shown(onSqlite));
    } finally {
      await database.drop();
    }
  }, 240_000);

  it('calibrate judge, report and status print the same on both and never create .parley/parley.db', async () => {
    const database = await freshDatabase(server);
    try {
      const onSqlite = await calibrationWalk(undefined);
      const onPostgres = await calibrationWalk(database.url);
      expect(existsSync(join(onPostgres.suite, '.parley', 'parley.db'))).toBe(false);
      const shown = (side: typeof onSqlite) => side.steps.map((step) => ({ args: step.args.join(' '), status: step.status, stdout: alike(step.stdout, side.suite, side.runIds) }));
      // The example set's gate fails (cultural appropriateness): report exits 1, as it does on SQLite.
      expect(onSqlite.steps.map((step) => step.status)).toEqual([0, 1, 0]);
      expect(onSqlite.steps[0]!.stdout).toContain('(replay): 25 items × 2 raters');
      expect(shown(onPostgres)).toEqual(shown(onSqlite));
    } finally {
      await database.drop();
    }
  }, 240_000);
});
