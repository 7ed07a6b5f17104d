import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer, type FakeScript } from '@parley/fake-llm';
// The store's driver switch is test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { storeDrivers, useStoreDriver } from '../../../libs/store/src/test-support/each-driver.js';
import { interruptOnHang, parleyAsync } from './test-support/parley-process.js';

/**
 * `parley run --resume RUN_ID` takes its flags from the stored run. A flag given again with another
 * value used to be ignored without a word (or, when the run had none, applied to the rest of the run
 * only); a relative --baseline only worked from the folder the run was started in.
 */

const IDS = ['s1', 's2', 's3', 's4', 's5', 's6'];
const ANSWER: FakeScript = { rules: [{ reply: { content: 'Karibu!', usage: { input_tokens: 100, output_tokens: 10 } } }] };
const HANG: FakeScript = { rules: [{ fault: { kind: 'hang' } }] };
let server: FakeLlmServer;
let root: string;

/** Runs the real binary in `cwd`; with `interrupt`, Ctrl-C once a call waits on the fake's hang. */
function parley(cwd: string, args: string[], interrupt = false) {
  const env = {
    OPENAI_API_KEY: 'sk-test-RESUMEFLAGS-0123456789',
    OPENAI_BASE_URL: server.openaiBaseUrl,
    ...(process.env.PARLEY_DATABASE_URL !== undefined ? { PARLEY_DATABASE_URL: process.env.PARLEY_DATABASE_URL } : {}),
  };
  return parleyAsync(args, { cwd, env, ...(interrupt ? { onSpawn: interruptOnHang(server) } : {}) });
}

interface Report {
  run_id: string;
  status: string;
  baseline?: { file: string };
  results: Array<{ scenario_id: string; status: string }>;
}

const reportIn = (folder: string): Report => JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as Report;

beforeAll(async () => {
  server = await startFakeLlm({ script: ANSWER });
  root = mkdtempSync(join(tmpdir(), 'parley-resume-flags-'));
  const suite = join(root, 'suite');
  mkdirSync(join(suite, 'scenarios'), { recursive: true });
  writeFileSync(join(suite, 'parley.yaml'), 'suite: resume_flags\nagents:\n  booking: { kind: openai, model: gpt-4.1-mini }\nsettings: { concurrency: 1 }\n');
  for (const id of IDS) writeFileSync(join(suite, 'scenarios', `${id}.yaml`), `id: ${id}\nagent: booking\nuser: { opening: "Habari" }\nexpect:\n  - { metric: tool_correctness, expected: [] }\n`);
});

afterAll(async () => {
  await server?.close();
});

describe.each(storeDrivers)('--resume and the stored run flags (%s store)', (driver) => {
  useStoreDriver(driver);

  /** In a fresh project folder beside the suite: a baseline of the suite, then a run gated on it (relative path), interrupted. */
  async function interruptedGatedRun(): Promise<{ project: string; runId: string }> {
    const project = mkdtempSync(join(root, 'project-'));
    server.setScript(ANSWER);
    const exported = await parley(project, ['run', '../suite', '--mode', 'live', '--out', 'main', '--export-baseline', 'base.json']);
    expect(exported.status, exported.stderr).toBe(0);
    server.setScript(HANG);
    const first = await parley(project, ['run', '../suite', '--mode', 'live', '--out', 'gated', '--baseline', 'base.json', '--shard', '1/2'], true);
    expect(first.status, first.stderr).toBe(130);
    server.setScript(ANSWER);
    return { project, runId: reportIn(join(project, 'gated')).run_id };
  }

  it('refuses a stored flag given with another value (exit 2, naming each), and accepts the same values', { timeout: 120_000 }, async () => {
    const { project, runId } = await interruptedGatedRun();
    const before = server.requests.length;
    const changed = await parley(project, ['run', '--resume', runId, '--baseline', 'other.json', '--shard', '2/2', '--repeat', '3', '--strict']);
    expect(changed.status, changed.stderr).toBe(2);
    expect(changed.stderr).toContain(
      `error: --resume ${runId} finishes the run with the flags it was started with; leave out ` +
        '--strict (the run has no --strict), --repeat 3 (the run has no --repeat), --baseline other.json (the run has --baseline base.json), --shard 2/2 (the run has --shard 1/2)',
    );
    expect(server.requests.length).toBe(before);
    expect(reportIn(join(project, 'gated')).status).toBe('interrupted');

    const same = await parley(project, ['run', '--resume', runId, '--baseline', './base.json', '--shard', '1/2', '--mode', 'live']);
    expect(same.status, same.stderr).toBe(0);
    const report = reportIn(join(project, 'gated'));
    expect(report.status).toBe('pass');
    expect(report.baseline?.file).toBe('base.json');
  });

  it(
    driver === 'postgres'
      ? 'finishes a run another machine started (its folder is not here) in this clone: report folder and relative --baseline of the same place here'
      : 'finishes a run whose clone was moved, in the moved clone',
    { timeout: 120_000 },
    async () => {
      // A project that holds its suite, as a team's repository does.
      const project = mkdtempSync(join(root, 'project-'));
      cpSync(join(root, 'suite'), join(project, 'suite'), { recursive: true });
      server.setScript(ANSWER);
      const exported = await parley(project, ['run', 'suite', '--mode', 'live', '--out', 'main', '--export-baseline', 'base.json']);
      expect(exported.status, exported.stderr).toBe(0);
      server.setScript(HANG);
      const first = await parley(project, ['run', 'suite', '--mode', 'live', '--out', 'gated', '--baseline', 'base.json'], true);
      expect(first.status, first.stderr).toBe(130);
      server.setScript(ANSWER);
      const runId = reportIn(join(project, 'gated')).run_id;
      // Another machine's clone (PostgreSQL), or this clone moved (SQLite: its .parley/ moves with it).
      const clone = join(root, `clone-of-${runId}`);
      cpSync(project, clone, { recursive: true });
      rmSync(project, { recursive: true, force: true });
      const resumed = await parley(clone, ['run', '--resume', runId]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(existsSync(project)).toBe(false);
      const report = reportIn(join(clone, 'gated'));
      expect(report.run_id).toBe(runId);
      expect(report.status).toBe('pass');
      expect(report.results).toHaveLength(IDS.length);
      expect(report.baseline?.file).toBe(join(clone, 'base.json'));
    },
  );

  it(
    driver === 'postgres' ? 'finishes from another folder with the relative --baseline and --export-baseline of the folder the run started in' : 'finishes a run stored before the start folder was kept, from its own folder',
    { timeout: 120_000 },
    async () => {
      const { project, runId } = await interruptedGatedRun();
      // The stored options keep the flag as typed and the folder it was typed in (SQLite and PostgreSQL alike).
      // Loaded when used, as the CLI loads the store.
      const { openSql } = await import('@parley/store');
      const sql = openSql(join(project, '.parley', 'parley.db'));
      try {
        const row = sql.get<{ options_json: string }>('SELECT options_json FROM runs WHERE id = ?', [runId])!;
        const options = JSON.parse(row.options_json) as Record<string, unknown>;
        expect(options).toMatchObject({ baseline: 'base.json', shard: '1/2', cwd: project });
        // A run stored by an older Parley has no `cwd`: its relative files are the resume's folder's, as before.
        if (driver === 'sqlite') {
          delete options.cwd;
          sql.run('UPDATE runs SET options_json = ? WHERE id = ?', [JSON.stringify(options), runId]);
        }
      } finally {
        sql.close();
      }
      if (driver === 'postgres') {
        // The team store is shared: a retried CI job resumes from another checkout folder.
        const elsewhere = mkdtempSync(join(root, 'elsewhere-'));
        const resumed = await parley(elsewhere, ['run', '--resume', runId]);
        expect(resumed.status, resumed.stderr).toBe(0);
        expect(reportIn(join(project, 'gated')).baseline?.file).toBe(join(project, 'base.json'));
        // --export-baseline likewise writes where the run was started.
        server.setScript(HANG);
        const exporting = await parley(project, ['run', '../suite', '--mode', 'live', '--out', 'exporting', '--export-baseline', 'exported.json'], true);
        expect(exporting.status, exporting.stderr).toBe(130);
        server.setScript(ANSWER);
        const finished = await parley(elsewhere, ['run', '--resume', reportIn(join(project, 'exporting')).run_id]);
        expect(finished.status, finished.stderr).toBe(0);
        expect(existsSync(join(project, 'exported.json'))).toBe(true);
        expect(existsSync(join(elsewhere, 'exported.json'))).toBe(false);
        return;
      }
      const resumed = await parley(project, ['run', '--resume', runId]);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(reportIn(join(project, 'gated')).baseline?.file).toBe('base.json');
    },
  );
});
