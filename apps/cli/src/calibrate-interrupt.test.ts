import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer, type FakeScript } from '@parley/fake-llm';
import { REPO_ROOT } from './test-support/example-copy.js';

/**
 * `parley calibrate judge` stopped by Ctrl-C or SIGTERM, through the real binary against
 * fake-llm: the session is `interrupted` (unfinished, so `calibrate report` does not pick it),
 * every paid rating is kept, no call starts after the signal and none is stored as an error, and
 * `--resume` asks only for the ratings the session lacks. It used to be stored as finished, with
 * the aborted calls as errors.
 */

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
const PLANNED = 50; // 25 items × (judge, cross-check)
const ANSWER = {
  reply: {
    content: JSON.stringify({ intent_comprehension: 4, response_naturalness: 4, cultural_appropriateness: 4, reason: 'clear and polite' }),
    usage: { input_tokens: 1000, output_tokens: 40 },
  },
};
/** Two calls answered, every later one hangs: the signal lands with two ratings done and two calls in flight. */
const TWO_THEN_HANG: FakeScript = { rules: [{ times: 2, ...ANSWER }, { fault: { kind: 'hang' } }] };
let server: FakeLlmServer;

beforeAll(async () => {
  server = await startFakeLlm({ script: TWO_THEN_HANG });
});

afterAll(async () => {
  await server?.close();
});

function parley(cwd: string, args: string[], signal?: NodeJS.Signals) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NO_COLOR: '1',
      OPENAI_API_KEY: 'sk-test-CALIBRATE-0123456789',
      ANTHROPIC_API_KEY: 'sk-ant-test-CALIBRATE-0123456789',
      OPENAI_BASE_URL: server.openaiBaseUrl,
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    },
  });
  let stdout = '';
  let stderr = '';
  let requestsAtSignal: number | undefined;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (signal && requestsAtSignal === undefined && /^\[2\/\d+\]/m.test(stderr)) {
      requestsAtSignal = server.requests.length;
      child.kill(signal);
    }
  });
  return new Promise<{ status: number | null; stdout: string; stderr: string; requestsAtSignal: number | undefined }>((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr, requestsAtSignal })),
  );
}

describe('parley calibrate judge interrupted by a signal', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: exit ${code}, the session is interrupted (not finished, not reported), paid ratings kept; --resume asks only for the rest`, async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'parley-calibrate-interrupt-'));
      cpSync(join(REPO_ROOT, 'calibration'), join(cwd, 'calibration'), { recursive: true, filter: (source) => !source.includes(join('calibration', 'reports')) });
      server.setScript(TWO_THEN_HANG);
      server.resetLog();

      const first = await parley(cwd, ['calibrate', 'judge', '--mode', 'live', '--no-cache', '--concurrency', '2'], signal);
      expect(first.status, first.stderr).toBe(code);
      const sessionId = /judge session (\S+) \(live\)/.exec(first.stdout)![1]!;
      expect(first.stdout).toContain(`INTERRUPTED (${signal}) · 2 of ${PLANNED} ratings kept`);
      expect(first.stdout).toContain(`finish it with: parley calibrate judge --resume ${sessionId}`);
      // Two calls answered (paid, and both kept); the ones in flight hung and were aborted, and no
      // new one started after them: at most one per concurrency slot beyond the two answered.
      expect(first.requestsAtSignal).toBeGreaterThanOrEqual(2);
      expect(server.requests.length).toBeGreaterThanOrEqual(2);
      expect(server.requests.length).toBeLessThanOrEqual(4);

      const { openCalibrationStore } = await import('@parley/calibration');
      const readStore = () => {
        const store = openCalibrationStore(join(cwd, '.parley/parley.db'));
        try {
          return { session: store.session(sessionId)!, ratings: store.ratings(sessionId) };
        } finally {
          store.close();
        }
      };
      const interrupted = readStore();
      expect(interrupted.session).toMatchObject({ finished_at: null, interrupted_by: signal });
      expect(interrupted.ratings).toHaveLength(2);
      expect(interrupted.ratings.every((rating) => rating.error === null && rating.scores !== null)).toBe(true);

      // calibrate report never gates on the interrupted session unless asked for it.
      const report = await parley(cwd, ['calibrate', 'report', '--format', 'json']);
      expect((JSON.parse(report.stdout) as { session: { id: string } }).session.id).not.toBe(sessionId);

      server.setScript({ rules: [ANSWER] });
      server.resetLog();
      const resumed = await parley(cwd, ['calibrate', 'judge', '--resume', sessionId, '--no-cache', '--concurrency', '2']);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain(`judge session ${sessionId} (live)`);
      // Only what the session lacked was asked: nothing rated (or paid for) twice.
      expect(server.requests).toHaveLength(PLANNED - 2);
      const finished = readStore();
      expect(finished.session.finished_at).not.toBeNull();
      expect(finished.session.interrupted_by).toBeNull();
      expect(finished.ratings).toHaveLength(PLANNED);
      expect(finished.ratings.every((rating) => rating.error === null)).toBe(true);
      const again = await parley(cwd, ['calibrate', 'judge', '--resume', sessionId]);
      expect(again.status).toBe(2);
      expect(again.stderr).toContain(`session ${sessionId} is finished`);
    });
  }
});
