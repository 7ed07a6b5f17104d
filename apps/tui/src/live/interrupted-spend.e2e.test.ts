import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { formatUsd } from '@parley/reports';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { TmuxSession } from '../test-support/tmux-session.js';

/** The built `parley` (the test setup runs `npm run build`). */
const PARLEY = fileURLToPath(new URL('../../../cli/bin/parley.js', import.meta.url));
/** Calls the fake answers before every further call hangs. */
const ANSWERED = 5;

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * Three scenarios of two turns, two at a time: five calls are answered, then every call hangs. Two
 * scenarios finish (four calls); the third has its first call answered and waits on its second
 * when Ctrl-C comes. That answered call was billed: the live screen counts it while the run goes,
 * and the summary after Ctrl-C must not drop it (it did: $0.7775 on screen, $0.7655 after).
 */
function spendSuite(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'parley-tui-spend-'));
  mkdirSync(join(cwd, 'scenarios'), { recursive: true });
  writeFileSync(
    join(cwd, 'parley.yaml'),
    'suite: spend\nagents:\n  booking: { kind: openai, model: gpt-4.1-mini }\npricing:\n  gpt-4.1-mini: { input: 0.40, output: 1.60 }\nsettings: { concurrency: 2 }\n',
  );
  for (const id of ['s1', 's2', 's3']) {
    writeFileSync(join(cwd, 'scenarios', `${id}.yaml`), `id: ${id}\nagent: booking\nuser:\n  opening: "Habari"\n  script: ["Asante"]\nexpect:\n  - { metric: content_signals, required: ["Karibu"] }\n`);
  }
  return cwd;
}

/** Calls the agent made (the fake's log also holds its control requests, such as a read of the log). */
function requestsReceived(server: FakeLlmServer): number {
  return server.requests.filter((request) => request.api !== 'control').length;
}

describe.skipIf(!TmuxSession.available())('parley tui run interrupted (tmux, colour on)', () => {
  it('the summary after Ctrl-C shows the spend the screen showed: the calls of the scenario still running count', async () => {
    const server = await startFakeLlm({
      script: { rules: [{ times: ANSWERED, reply: { content: 'Karibu!', usage: { input_tokens: 1000, output_tokens: 100 } } }, { fault: { kind: 'hang' } }] },
    });
    cleanups.push(() => server.close());
    const cwd = spendSuite();
    cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
    const session = TmuxSession.start(`parley-spend-${process.pid}`, [process.execPath, PARLEY, 'tui', 'run', '.', '--mode', 'live', '--out', 'out'], {
      cwd,
      env: { OPENAI_API_KEY: 'sk-test-SPEND-0123456789', OPENAI_BASE_URL: server.openaiBaseUrl },
    });
    cleanups.push(() => session.kill());
    // Five calls at $0.00056 each (1,000 input and 100 output tokens at the suite's prices).
    const spent = formatUsd(ANSWERED * 0.00056);
    const running = await session.waitFor((screen) => screen.includes('2/3 done') && screen.includes(`spend ${spent}`));
    expect(running).toContain('1 running');
    const deadline = Date.now() + 60_000;
    while (requestsReceived(server) <= ANSWERED) {
      if (Date.now() > deadline) throw new Error('the run never reached the hanging call');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    session.keys('C-c');
    const summary = await session.waitFor((screen) => screen.includes('exit 130'));
    const report = JSON.parse(readFileSync(join(cwd, 'out/report.json'), 'utf8')) as { cost: { calls: number }; cost_usd: number };
    expect(report.cost.calls).toBe(ANSWERED);
    expect(formatUsd(report.cost_usd)).toBe(spent);
    expect(summary).toMatch(new RegExp(`^\\${spent} · [\\d.]+ s · live$`, 'm'));
    session.keys('q');
    await session.waitFor((screen) => screen.includes('[exit 130]'));
  }, 90_000);
});
