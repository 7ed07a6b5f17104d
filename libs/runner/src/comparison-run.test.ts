import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { writeTempSuite } from './test-support/temp-suite.js';

let server: FakeLlmServer;
let seed = 900;

beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        // The simulator (gpt-4.1) plays Amina; it ends the conversation once it has a booking number.
        { when: { model: 'gpt-4.1', last_user: '/BK-/' }, reply: { tool_calls: [{ name: 'end_conversation', args: { reason: 'goal_reached', explanation: 'Booked.' } }] } },
        { when: { model: 'gpt-4.1' }, reply: { content: 'Nataka massage Jumamosi saa 10:00.' } },
        // Two versions of the agent: v2 answers in English.
        { when: { model: 'gpt-4.1-mini', system: 'v2' }, reply: { content: 'Booked for Saturday 10:00. Number BK-2.' } },
        { when: { model: 'gpt-4.1-mini' }, reply: { content: 'Nimekuwekea Jumamosi saa 10:00. Nambari BK-1.' } },
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
    env: { OPENAI_API_KEY: 'sk-test-compare-0123', OPENAI_BASE_URL: server.openaiBaseUrl },
    clock: manualClock(),
    random: seededRandom((seed += 1)),
  };
}

const SUITE: Record<string, string> = {
  'parley.yaml': `suite: compare
agents:
  v1: { kind: openai, model: gpt-4.1-mini, system_prompt: v1.md }
  v2: { kind: openai, model: gpt-4.1-mini, system_prompt: v2.md }
simulator: { provider: openai, model: gpt-4.1, temperature: 0.7, seed: 42 }
matrix: { agents: [v1, v2] }
`,
  'v1.md': 'You book massages (v1).\n',
  'v2.md': 'You book massages (v2).\n',
  'scenarios/amina.yaml': `id: amina
agent: v1
user:
  simulate:
    persona: Amina, prefers Swahili
    goal: a booking number for Saturday
    max_turns: 3
expect:
  - { metric: content_signals, required: ["BK-"] }
`,
};

describe('a comparison run with a simulated user', () => {
  it('gives the simulator the same seed and persona for every agent, records per agent and replays offline', async () => {
    const dir = writeTempSuite(SUITE);
    const before = server.requests.length;
    const recorded = await runSuite({ suitePath: dir, mode: 'record' }, deps(dir));
    expect(recorded.report.results.map((result) => [result.scenario_id, result.agent, result.status])).toEqual([
      ['amina', 'v1', 'pass'],
      ['amina@v2', 'v2', 'pass'],
    ]);
    const simulatorCalls = server.requests.slice(before).filter((request) => request.model === 'gpt-4.1');
    const bodies = simulatorCalls.map((request) => request.body as { seed?: number; messages: Array<{ role: string; content: string }> });
    expect(bodies.length).toBeGreaterThanOrEqual(4);
    expect(new Set(bodies.map((body) => body.seed))).toEqual(new Set([42]));
    const systemPrompts = new Set(bodies.map((body) => body.messages.find((message) => message.role === 'system')?.content));
    expect(systemPrompts.size).toBe(1); // the same persona and goal, whichever agent it talks to
    expect(existsSync(join(dir, 'recordings', 'amina.jsonl'))).toBe(true);
    expect(existsSync(join(dir, 'recordings', 'amina@v2.jsonl'))).toBe(true);

    const callsBefore = server.requests.length;
    const replayed = await runSuite({ suitePath: dir }, { ...deps(dir), env: {} });
    expect(server.requests.length).toBe(callsBefore);
    expect(replayed.report.results.map((result) => result.transcript)).toEqual(recorded.report.results.map((result) => result.transcript));
    expect(replayed.report.comparison?.agents).toEqual(['v1', 'v2']);
  });
});
