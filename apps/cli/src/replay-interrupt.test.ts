import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './test-support/example-copy.js';

/**
 * A replay stops on Ctrl-C and SIGTERM like a live run: a replayed scenario never waits on the
 * network, so the run must give the signal its turn between scenarios (it used to act on it only
 * after the last one: exit 0, PASS). The signal is sent when the first progress line arrives; the
 * suite is large enough (800 scenarios, seconds of work) that the run is still going then.
 */

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
const COUNT = 800;
let cwd: string;

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'parley-replay-interrupt-'));
  // The bench's synthetic suite (scenarios and their recordings, every one passing in replay),
  // written by the bench tool run as a process, as tools are: the CLI's code never imports them.
  const write = `import { writeSyntheticSuite } from '@parley/bench'; writeSyntheticSuite({ dir: ${JSON.stringify(join(cwd, 'suite'))}, scenarioCount: ${COUNT} });`;
  const written = spawnSync(process.execPath, ['--input-type=module', '-e', write], { cwd: join(REPO_ROOT, 'tools/bench'), encoding: 'utf8' });
  expect(written.status, written.stderr).toBe(0);
});

/** Runs the real binary; sends `signal` once, on the first progress line. */
function parley(args: string[], signal?: NodeJS.Signals) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  let sent = false;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (signal && !sent && /^\[1\/\d+\]/m.test(stderr)) {
      sent = true;
      child.kill(signal);
    }
  });
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

interface Report {
  run_id: string;
  status: string;
  exit_code: number;
  interruption?: { signal: string; ran: number; planned: number; resume: string };
  results: Array<{ scenario_id: string; status: string }>;
}

describe('a replay interrupted by a signal', () => {
  for (const [signal, code, out] of [
    ['SIGINT', 130, 'out-int'],
    ['SIGTERM', 143, 'out-term'],
  ] as const) {
    it(`${signal}: stops starting scenarios, writes its report as interrupted, exits ${code}; --resume runs only what is left`, async () => {
      const first = await parley(['run', 'suite', '--mode', 'replay', '--out', out], signal);
      expect(first.status, first.stderr.slice(-2000)).toBe(code);
      const report = JSON.parse(readFileSync(join(cwd, out, 'report.json'), 'utf8')) as Report;
      const runId = report.run_id;
      expect(report).toMatchObject({ status: 'interrupted', exit_code: code, interruption: { signal, planned: COUNT, resume: `parley run --resume ${runId}` } });
      const ran = report.results.length;
      expect(ran).toBeGreaterThan(0);
      expect(ran).toBeLessThan(COUNT);
      expect(report.interruption!.ran).toBe(ran);
      expect(first.stdout).toContain(`INTERRUPTED · ${ran} of ${COUNT} ran`);

      const { openStore } = await import('@parley/store');
      const store = openStore(join(cwd, '.parley/parley.db'));
      try {
        expect(store.getRun(runId)).toMatchObject({ status: 'interrupted', exit_code: code });
        expect([...store.finishedScenarioIds(runId)].sort()).toEqual(report.results.map((result) => result.scenario_id).sort());
      } finally {
        store.close();
      }

      const resumed = await parley(['run', '--resume', runId]);
      expect(resumed.status, resumed.stderr.slice(-2000)).toBe(0);
      const completed = JSON.parse(readFileSync(join(cwd, out, 'report.json'), 'utf8')) as Report;
      const ids = completed.results.map((result) => result.scenario_id);
      expect(ids).toHaveLength(COUNT);
      expect(new Set(ids).size).toBe(COUNT); // nothing ran twice
      expect(completed.results.every((result) => result.status === 'pass')).toBe(true);
      // The resumed run replayed only what the interrupted one had not finished.
      const progressLines = resumed.stderr.split('\n').filter((line) => /^\[\d+\/\d+\]/.test(line));
      expect(progressLines, resumed.stderr.slice(0, 500)).toHaveLength(COUNT - ran);
    });
  }
});
