import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { writeTempSuite } from './test-support/temp-suite.js';

let server: FakeLlmServer;
let seed = 700;

beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        // The prompt agent reports its FSM state with the state tool, alongside its real tools.
        {
          when: { last_message_role: 'user', last_user: '/massage/' },
          reply: { tool_calls: [{ name: 'report_state', args: { state: 'collecting_details' } }, { name: 'check_availability', args: { day: 'saturday' } }] },
        },
        { when: { last_tool: 'check_availability' }, reply: { content: 'Tuna nafasi saa 10:00. Ungependa?' } },
        { when: { last_message_role: 'user', last_user: '/saa 10:00/' }, reply: { tool_calls: [{ name: 'report_state', args: { state: 'booked' } }] } },
        { when: { last_tool: 'report_state', last_user: '/saa 10:00/' }, reply: { content: 'Nimekuwekea saa 10:00 Jumamosi. BK-1042.' } },
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
    env: { OPENAI_API_KEY: 'sk-test-state-0123', OPENAI_BASE_URL: server.openaiBaseUrl },
    clock: manualClock(),
    random: seededRandom((seed += 1)), // a run id of its own per run
  };
}

const suite = (stateTool: string): Record<string, string> => ({
  'parley.yaml': `suite: states
agents:
  booking: { kind: openai, model: gpt-4.1-mini, temperature: 0, tools: tools.json${stateTool} }
`,
  'tools.json': JSON.stringify([{ name: 'check_availability', parameters: { type: 'object', properties: { day: { type: 'string' } } } }]),
  'scenarios/amina.yaml': `id: amina
agent: booking
user:
  opening: "Nataka massage Jumamosi."
  script: ["saa 10:00 tafadhali"]
tools:
  check_availability: { returns: { slots: ["10:00"] } }
expect:
  - metric: state_path
    expected: [collecting_details, booked]
  - metric: tool_correctness
    mode: exact
    expected: [{ name: check_availability }]
`,
});

describe('a prompt agent with state_tool', () => {
  it('reports its FSM state, so state_path checks its transitions; the state reports stay out of the tool calls', async () => {
    const dir = writeTempSuite(suite(', state_tool: { states: [collecting_details, booked] }'));
    const live = await runSuite({ suitePath: dir, mode: 'record' }, deps(dir));
    const result = live.report.results[0]!;
    expect(result.metrics.map((metric) => [metric.metric, metric.passed])).toEqual([
      ['state_path', true],
      ['tool_correctness', true],
    ]);
    expect(result.transcript?.turns.filter((turn) => turn.role === 'assistant').map((turn) => turn.state ?? null)).toEqual(['collecting_details', null, 'booked', null]);
    expect(result.transcript?.turns.some((turn) => turn.tool_name === 'report_state')).toBe(false);
    // The agent was offered the tool with the states it may report.
    const offered = server.requests.find((request) => request.rule !== null)!.body as { tools?: Array<{ function: { name: string; parameters: { properties: { state?: { enum?: string[] } } } } }> };
    expect(offered.tools?.find((tool) => tool.function.name === 'report_state')?.function.parameters.properties.state?.enum).toEqual(['collecting_details', 'booked']);

    // Replayed from the recording, the same states.
    const replay = await runSuite({ suitePath: dir, mode: 'replay' }, deps(dir));
    expect(replay.report.results[0]!.metrics[0]).toMatchObject({ metric: 'state_path', passed: true });
    expect(readFileSync(join(dir, 'recordings', 'amina.jsonl'), 'utf8')).toContain('"report_state"');
  });

  it('without state_tool a prompt agent reports no state and state_path says so', async () => {
    const dir = writeTempSuite(suite(''));
    const outcome = await runSuite({ suitePath: dir, mode: 'live' }, deps(dir));
    // The fake answers with a report_state call the agent was never offered: it is an unknown tool.
    const statePath = outcome.report.results[0]!.metrics.find((metric) => metric.metric === 'state_path');
    expect(statePath).toMatchObject({ passed: false, reason: expect.stringContaining('the agent reported no state') });
  });

  it('refuses a state tool named like one of the agent’s tools, at its line in parley.yaml', async () => {
    const dir = writeTempSuite(suite(', state_tool: { name: check_availability }'));
    await expect(runSuite({ suitePath: dir, mode: 'live' }, deps(dir))).rejects.toThrow(/parley\.yaml:3:\d+: .*state tool "check_availability" has the name of a tool/);
  });
});
