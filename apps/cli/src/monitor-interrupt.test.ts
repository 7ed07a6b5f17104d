import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './test-support/example-copy.js';
import { MONITORED_SUITE, writeMonitorLog } from './test-support/monitored-suite.js';
import { parleyAsync } from './test-support/parley-process.js';
import { until } from './test-support/until.js';
import { writeSuite } from './test-support/zuri-suite.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
const ANSWER = { content: JSON.stringify({ score: 4, reason: 'Clear answer.' }), usage: { input_tokens: 1000, output_tokens: 40 } };

let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

/** The real binary, sent `signal` once `ready()` holds. */
function monitorUntilSignal(cwd: string, env: NodeJS.ProcessEnv, signal: NodeJS.Signals, ready: () => boolean) {
  const child = spawn(process.execPath, [BIN, 'monitor', '--logs', 'conversations.jsonl', '--format', 'json'], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
  void until(ready).then(() => child.kill(signal));
  return closed;
}

describe('parley monitor interrupted (the real binary, judge on fake-llm)', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: no call after the signal, what was judged is saved, exit ${code}; the next run judges exactly the rest`, async () => {
      const suite = writeSuite({ ...MONITORED_SUITE, 'parley.yaml': `${MONITORED_SUITE['parley.yaml']!}settings: { concurrency: 2 }\n` });
      const sampled = writeMonitorLog(suite, 'interrupt-conv', 300);
      expect(sampled.length).toBeGreaterThan(6);
      // Three calls are answered, every later one hangs: the signal comes while two wait.
      llm = await startFakeLlm({ script: { rules: [{ times: 3, reply: ANSWER }, { fault: { kind: 'hang' } }] } });
      const env = { OPENAI_BASE_URL: llm.openaiBaseUrl, OPENAI_API_KEY: 'sk-fake-interrupt' };
      const server = llm;
      const stopped = await monitorUntilSignal(suite, env, signal, () => server.requests.length >= 5);
      const callsAtSignal = server.requests.length;
      expect(stopped.status, stopped.stderr).toBe(code);
      expect(stopped.stderr).toContain(`stopping (${signal}): keeping what completed, starting nothing new`);
      const outcome = JSON.parse(stopped.stdout);
      expect(outcome.interrupted).toBe(signal);
      expect(outcome.exit_code).toBe(code);
      expect(outcome.judged).toHaveLength(3);
      expect(outcome.not_judged).toHaveLength(sampled.length - 3);
      // Nothing was asked of the judge after the signal.
      expect(server.requests.length).toBe(callsAtSignal);
      expect(callsAtSignal).toBe(5);

      await fetch(`${server.url}/_fake/script`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules: [], fallback: ANSWER }) });
      const before = server.requests.length;
      const resumed = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--format', 'json'], { cwd: suite, env });
      expect(resumed.status, resumed.stderr).toBe(0);
      const rest = JSON.parse(resumed.stdout);
      expect(rest).toMatchObject({ already_judged: 3, interrupted: null });
      expect(rest.judged).toHaveLength(sampled.length - 3);
      // Each of the rest judged once, none of the three again: one call per conversation.
      expect(server.requests.length - before).toBe(sampled.length - 3);
      expect(rest.windows[0]).toMatchObject({ metric: 'service_quality', current: { n: sampled.length } });
    }, 120_000);
  }
});
