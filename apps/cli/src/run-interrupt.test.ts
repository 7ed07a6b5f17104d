import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer, type FakeScript } from '@parley/fake-llm';
// The store's driver switch is test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { storeDrivers, useStoreDriver } from '../../../libs/store/src/test-support/each-driver.js';
import { REPO_ROOT } from './test-support/example-copy.js';
import { until } from './test-support/until.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
const IDS = ['s1', 's2', 's3', 's4', 's5', 's6'];
let server: FakeLlmServer;
let cwd: string;

const KARIBU = { reply: { content: 'Karibu!', usage: { input_tokens: 100, output_tokens: 10 } } };
/**
 * The first two calls are answered, every later one hangs: the signal is sent once two scenarios
 * have finished, while the next ones wait on the fake, however slowly the machine runs (a fixed
 * latency let a loaded machine finish all six before the signal arrived).
 */
const TWO_THEN_HANG: FakeScript = { rules: [{ times: 2, ...KARIBU }, { fault: { kind: 'hang' } }] };

/** Replaces the fake's script (and restarts its counters). */
async function script(value: FakeScript): Promise<void> {
  const response = await fetch(`${server.url}/_fake/script`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  server = await startFakeLlm({ script: TWO_THEN_HANG });
  cwd = mkdtempSync(join(tmpdir(), 'parley-interrupt-'));
  const suite = join(cwd, 'suite');
  mkdirSync(join(suite, 'scenarios'), { recursive: true });
  writeFileSync(
    join(suite, 'parley.yaml'),
    `suite: interrupt
agents:
  booking: { kind: openai, model: gpt-4.1-mini }
settings: { concurrency: 2 }
isolation:
  setup: 'echo "setup $PARLEY_RUN_ID $PARLEY_SCENARIO_ID $PARLEY_TENANT" >> ../hooks.log'
  teardown: 'echo "teardown $PARLEY_RUN_ID $PARLEY_SCENARIO_ID $PARLEY_TENANT" >> ../hooks.log'
`,
  );
  for (const id of IDS) writeFileSync(join(suite, 'scenarios', `${id}.yaml`), `id: ${id}\nagent: booking\nuser: { opening: "Habari" }\nexpect:\n  - { metric: content_signals, required: ["Karibu"] }\n`);
});

afterAll(async () => {
  await server?.close();
});

/**
 * Runs the real binary; calls `onStderrLine` for each stderr line (it may send signals). The store
 * is the team store PARLEY_DATABASE_URL names while a PostgreSQL case runs (useStoreDriver), else SQLite.
 */
function parley(args: string[], onStderrLine: (line: string, child: ReturnType<typeof spawn>) => void = () => {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NO_COLOR: '1',
      OPENAI_API_KEY: 'sk-test-INTERRUPT-0123456789',
      OPENAI_BASE_URL: server.openaiBaseUrl,
      ...(process.env.PARLEY_DATABASE_URL !== undefined ? { PARLEY_DATABASE_URL: process.env.PARLEY_DATABASE_URL } : {}),
    },
  });
  let stdout = '';
  let stderr = '';
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onStderrLine(line, child);
  });
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

/**
 * A stderr handler for `parley()` that sends `signal` once, after the progress line `[2/6]` and once
 * the next two scenarios (the concurrency) wait on the fake's hang: both were set up and are cut short,
 * however slowly the machine starts them.
 */
function signalWhileTwoHang(signal: NodeJS.Signals): (line: string, child: ReturnType<typeof spawn>) => void {
  const from = server.requests.length;
  let sent = false;
  return (line, child) => {
    if (sent || !/^\[2\/6\]/.test(line)) return;
    sent = true;
    void until(() => server.requests.slice(from).filter((request) => request.fault === 'hang').length >= 2).then(() => child.kill(signal));
  };
}

/** The setups and teardowns the hooks logged for one run (the log holds every run of this file). */
function hookPairs(runId: string): { setups: string[]; teardowns: string[] } {
  const lines = readFileSync(join(cwd, 'hooks.log'), 'utf8').trim().split('\n');
  const rest = (hook: string) => {
    const prefix = `${hook} ${runId} `;
    return lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length)).sort();
  };
  return { setups: rest('setup'), teardowns: rest('teardown') };
}

describe.each(storeDrivers)('Ctrl-C during a live run, then --resume (%s store)', (driver) => {
  useStoreDriver(driver);
  const out = `out-${driver}`;

  it('keeps finished results (store and reports), tears down every started scenario, exits 130; --resume completes the run', async () => {
    await script(TWO_THEN_HANG);
    const first = await parley(['run', 'suite', '--mode', 'live', '--out', out], signalWhileTwoHang('SIGINT'));
    expect(first.status, first.stderr).toBe(130);
    // Named where the history went: a team store by its URL, never a local file it did not use.
    const kept = driver === 'postgres' ? `the team store ${new URL(process.env.PARLEY_DATABASE_URL!).href}` : '.parley/parley.db';
    expect(first.stderr).toContain(`interrupted: finished results are kept in the reports and ${kept}\n`);
    const runId = /run (\d{8}-\d{6}-[0-9a-f]{6})/.exec(first.stderr)![1]!;

    const report = JSON.parse(readFileSync(join(cwd, out, 'report.json'), 'utf8')) as {
      status: string;
      exit_code: number;
      interruption?: { signal: string; ran: number; planned: number; resume: string };
      results: Array<{ scenario_id: string; status: string }>;
    };
    expect(report.exit_code).toBe(130);
    // Interrupted, never pass: what did not run was not checked.
    expect(report.status).toBe('interrupted');
    expect(report.interruption).toEqual({ signal: 'SIGINT', ran: report.results.length, planned: IDS.length, resume: `parley run --resume ${runId}` });
    expect(first.stdout).toContain(`INTERRUPTED · ${report.results.length} of ${IDS.length} ran: ${report.results.length} pass · live`);
    expect(first.stdout).toContain(`finish it with: parley run --resume ${runId}`);
    expect(readFileSync(join(cwd, out, 'summary.md'), 'utf8')).toContain(`## Parley: INTERRUPTED — ${report.results.length} of ${IDS.length} scenarios ran (stopped by Ctrl-C)`);
    const listed = await parley(['runs', 'list']);
    expect(listed.stdout).toMatch(new RegExp(`${runId} +interrupt +live +interrupted `));
    const shown = await parley(['runs', 'show', runId]);
    expect(shown.stdout).toContain(`interrupted (exit 130) · ${report.results.length} of ${IDS.length} ran`);
    const finished = report.results.map((result) => result.scenario_id);
    expect(finished).toEqual(['s1', 's2'].slice(0, finished.length));
    expect(finished).toHaveLength(2);
    expect(report.results.every((result) => result.status === 'pass')).toBe(true);
    const { openStore } = await import('@parley/store'); // the CLI loads the store lazily; so does this test
    const store = openStore(join(cwd, '.parley/parley.db'));
    try {
      expect(store.finishedScenarioIds(runId)).toEqual(finished);
    } finally {
      store.close();
    }
    // Scenarios cut short by Ctrl-C were torn down too: every setup has its teardown.
    const afterInterrupt = hookPairs(runId);
    expect(afterInterrupt.setups.length).toBe(finished.length + 2);
    expect(afterInterrupt.teardowns).toEqual(afterInterrupt.setups);

    // --resume continues in the run's own folder: another --out is refused, not silently ignored.
    const moved = await parley(['run', '--resume', runId, '--out', 'elsewhere']);
    expect(moved.status).toBe(2);
    expect(moved.stderr).toContain(`error: --resume ${runId} continues the run in its own folder ${join(cwd, out)}; leave out --out elsewhere`);

    await script({ rules: [KARIBU] });
    const resumed = await parley(['run', '--resume', runId]);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`run ${runId}`);
    // The run was started with --mode live: resuming it is no accidental live run of a suite without recordings.
    expect(resumed.stderr).not.toContain('the suite has no recordings yet');
    const completed = JSON.parse(readFileSync(join(cwd, out, 'report.json'), 'utf8')) as typeof report;
    expect(completed.exit_code).toBe(0);
    expect(completed.results.map((result) => [result.scenario_id, result.status])).toEqual(IDS.map((id) => [id, 'pass']));
    const afterResume = hookPairs(runId);
    expect(afterResume.teardowns).toEqual(afterResume.setups);
  });
});

describe('SIGTERM, SIGKILL and refused flags of a live run', () => {
  it('SIGTERM (CI runners, timeout) is handled like Ctrl-C: reports written, every setup torn down, status interrupted, exit 143', async () => {
    await script(TWO_THEN_HANG);
    const run = await parley(['run', 'suite', '--mode', 'live', '--out', 'out-term'], signalWhileTwoHang('SIGTERM'));
    expect(run.status, run.stderr).toBe(143);
    const runId = /run (\d{8}-\d{6}-[0-9a-f]{6})/.exec(run.stderr)![1]!;
    const report = JSON.parse(readFileSync(join(cwd, 'out-term/report.json'), 'utf8')) as { status: string; exit_code: number; interruption?: { signal: string }; results: unknown[] };
    expect(report).toMatchObject({ status: 'interrupted', exit_code: 143, interruption: { signal: 'SIGTERM' } });
    expect(report.results).toHaveLength(2);
    expect(run.stdout).toMatch(/INTERRUPTED · \d of 6 ran: .* exit 143/);
    const hooks = hookPairs(runId);
    expect(hooks.setups).toHaveLength(report.results.length + 2);
    expect(hooks.teardowns).toEqual(hooks.setups);
    const { openStore } = await import('@parley/store');
    const store = openStore(join(cwd, '.parley/parley.db'));
    try {
      expect(store.getRun(runId)).toMatchObject({ status: 'interrupted', exit_code: 143 });
    } finally {
      store.close();
    }
  });

  it('SIGKILL loses no finished result of a live run: each is in the store before its progress line is printed', async () => {
    await script(TWO_THEN_HANG);
    let killed = false;
    const run = await parley(['run', 'suite', '--mode', 'live', '--out', 'out-kill'], (line, child) => {
      if (!killed && /^\[1\/6\]/.test(line)) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    expect(run.status).toBeNull(); // killed, no exit code
    const runId = /run (\d{8}-\d{6}-[0-9a-f]{6})/.exec(run.stderr)![1]!;
    const { openStore } = await import('@parley/store');
    const store = openStore(join(cwd, '.parley/parley.db'));
    try {
      // Saved in batches (up to 200 ms later), the first result would be lost to the kill.
      expect(store.finishedScenarioIds(runId).length).toBeGreaterThanOrEqual(1);
      expect(store.getRun(runId)).toMatchObject({ finished: false });
    } finally {
      store.close();
    }
  });

  it('refuses bad --budget and unknown --resume ids with exit 2', async () => {
    const budget = await parley(['run', 'suite', '--budget', 'lots']);
    expect(budget.status).toBe(2);
    expect(budget.stderr).toContain('--budget must be an amount of US dollars');
    const resume = await parley(['run', '--resume', '19990101-000000-abcdef']);
    expect(resume.status).toBe(2);
    expect(resume.stderr).toContain('no such run');
  });
});
