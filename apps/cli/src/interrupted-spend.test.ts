import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { REPO_ROOT } from './test-support/example-copy.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
const ANSWERED = 5;
let server: FakeLlmServer;
let cwd: string;

/**
 * Three scenarios of two turns (two agent calls each), two at a time: five calls are answered,
 * then every call hangs. Two scenarios finish (four calls); the third has its first call answered
 * and waits on its second when Ctrl-C comes. That answered call was billed: it counts.
 */
beforeAll(async () => {
  server = await startFakeLlm({
    script: { rules: [{ times: ANSWERED, reply: { content: 'Karibu!', usage: { input_tokens: 1000, output_tokens: 100 } } }, { fault: { kind: 'hang' } }] },
  });
  cwd = mkdtempSync(join(tmpdir(), 'parley-interrupted-spend-'));
  mkdirSync(join(cwd, 'scenarios'), { recursive: true });
  writeFileSync(join(cwd, 'parley.yaml'), 'suite: spend\nagents:\n  booking: { kind: openai, model: gpt-4.1-mini }\nsettings: { concurrency: 2 }\n');
  for (const id of ['s1', 's2', 's3']) {
    writeFileSync(join(cwd, 'scenarios', `${id}.yaml`), `id: ${id}\nagent: booking\nuser:\n  opening: "Habari"\n  script: ["Asante"]\nexpect:\n  - { metric: content_signals, required: ["Karibu"] }\n`);
  }
});

afterAll(async () => {
  await server?.close();
});

/** Calls the agent made (the fake's log also holds its control requests, such as a read of the log). */
function requestsReceived(): number {
  return server.requests.filter((request) => request.api !== 'control').length;
}

describe('the cost of an interrupted live run', () => {
  it('counts the answered calls of the scenario still running when Ctrl-C came, in report.json and the console', async () => {
    const child = spawn(process.execPath, [BIN, 'run', '.', '--mode', 'live', '--out', 'out'], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', OPENAI_API_KEY: 'sk-test-SPEND-0123456789', OPENAI_BASE_URL: server.openaiBaseUrl },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Ctrl-C once the fake holds a call beyond the answered ones: every answered call is in.
    const deadline = Date.now() + 60_000;
    while (requestsReceived() <= ANSWERED || !/^\[2\/3\]/m.test(stderr)) {
      if (Date.now() > deadline) throw new Error('the run never reached the hanging call');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGINT');
    expect(await closed, stderr).toBe(130);

    const report = JSON.parse(readFileSync(join(cwd, 'out/report.json'), 'utf8')) as {
      cost: { calls: number; input_tokens: number; output_tokens: number; usd: number | null };
      cost_usd: number | null;
      interruption: { unfinished_cost?: { calls: number } };
      results: Array<{ scenario_id: string; cost: { calls: number; usd: number | null } }>;
    };
    const finishedCalls = report.results.reduce((total, result) => total + result.cost.calls, 0);
    expect(finishedCalls).toBeLessThan(ANSWERED);
    // Every answered call is in the run's cost: those of finished scenarios and of the one cut short.
    expect(report.cost.calls).toBe(ANSWERED);
    expect(report.cost.input_tokens).toBe(ANSWERED * 1000);
    expect(report.interruption.unfinished_cost?.calls).toBe(ANSWERED - finishedCalls);
    const finishedUsd = report.results.reduce((total, result) => total + (result.cost.usd ?? 0), 0);
    expect(report.cost_usd).toBeGreaterThan(finishedUsd);
    // The console summary shows the run's cost, the cut-short calls included.
    expect(stdout).toContain(`$${report.cost_usd!.toFixed(4)}`);
  }, 90_000);
});
