import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { writeTempSuite } from './test-support/temp-suite.js';

let server: FakeLlmServer;

beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        { name: 'simulator', when: { model: 'gpt-4.1' }, reply: { tool_calls: [{ name: 'end_conversation', args: { reason: 'goal_reached' } }], usage: { input_tokens: 100, output_tokens: 10 } } },
        { name: 'agent', when: { model: 'gpt-4.1-mini' }, reply: { content: 'Hello!', usage: { input_tokens: 100, output_tokens: 10 } } },
      ],
    },
  });
});

afterAll(async () => {
  await server?.close();
});

function deps(cwd: string): RunDependencies {
  return {
    cwd,
    env: { OPENAI_API_KEY: 'sk-test-SIMMAX-0123', OPENAI_BASE_URL: server.openaiBaseUrl },
    clock: manualClock(),
    random: seededRandom(7),
    resilience: { sleep: async () => {}, random: () => 0.5 },
  };
}

function suite(simulator: string): Record<string, string> {
  return {
    'parley.yaml': `suite: simulated
agents:
  helper: { kind: openai, model: gpt-4.1-mini, max_tokens: 50, system_prompt: prompt.md }
simulator: ${simulator}
`,
    'prompt.md': 'You help.\n',
    'scenarios/hello.yaml': `id: hello
agent: helper
user:
  opening: Hello
  simulate: { persona: a customer, goal: say hello, max_turns: 2 }
expect:
  - { metric: max_turns, max: 4 }
`,
  };
}

describe('simulator.max_tokens', () => {
  it('is sent with every simulator call and bounds its worst case under a budget; a refused call says which it was and how to bound it', async () => {
    // Without max_tokens the simulator's worst case is 16,384 output tokens at gpt-4.1's $8/M ($0.13):
    // it does not fit $0.02, so the scenario is cut short. With max_tokens: 64 it fits and runs.
    const unbounded = writeTempSuite(suite('{ provider: openai, model: gpt-4.1 }'));
    const cut = await runSuite({ suitePath: unbounded, mode: 'live', outDir: 'out', budgetUsd: 0.02 }, deps(unbounded));
    expect(cut.report.results[0]!.status).toBe('warn');
    // The reason names the call and says how to bound it.
    expect(cut.report.results[0]!.reason).toContain(
      "a call's worst case of $0.1333 (simulator gpt-4.1, which sets no max_tokens: 16,384 output tokens assumed; set max_tokens under simulator: to lower it) did not fit",
    );

    server.resetLog();
    const bounded = writeTempSuite(suite('{ provider: openai, model: gpt-4.1, max_tokens: 64 }'));
    const run = await runSuite({ suitePath: bounded, mode: 'live', outDir: 'out', budgetUsd: 0.02 }, deps(bounded));
    expect(run.report.results[0]!.status, run.report.results[0]!.reason).toBe('pass');
    const simulatorCalls = server.requests.filter((request) => request.rule === 'simulator');
    expect(simulatorCalls.length).toBeGreaterThan(0);
    for (const call of simulatorCalls) expect((call.body as { max_tokens?: number }).max_tokens).toBe(64);
    expect(run.report.budget?.spent_usd).toBeLessThanOrEqual(0.02);
  });
});

describe('a call the budget refuses', () => {
  it('names the agent call that sets no max_tokens and what to set', async () => {
    const dir = writeTempSuite({
      ...suite('{ provider: openai, model: gpt-4.1, max_tokens: 64 }'),
      'parley.yaml': `suite: unbounded
agents:
  helper: { kind: openai, model: gpt-4.1-mini, system_prompt: prompt.md }
`,
      'scenarios/hello.yaml': 'id: hello\nagent: helper\nuser: { opening: Hello }\n',
    });
    const run = await runSuite({ suitePath: dir, mode: 'live', outDir: 'out', budgetUsd: 0.02 }, deps(dir));
    expect(run.report.results[0]!.status).toBe('warn');
    expect(run.report.results[0]!.reason).toMatch(
      /^not checked: budget reached during this scenario: a call's worst case of \$0\.\d{4} \(agent gpt-4\.1-mini, which sets no max_tokens: 16,384 output tokens assumed; set max_tokens on the agent to lower it\) did not fit \(\$0\.0000 spent and \$0\.0000 held of \$0\.0200\)/,
    );
  });
});
