import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { writeTempSuite } from './test-support/temp-suite.js';

let server: FakeLlmServer;
let seed = 17;

function deps(cwd: string, env: NodeJS.ProcessEnv): RunDependencies {
  return { cwd, env, clock: manualClock(), random: seededRandom((seed += 1)), listeners: [], resilience: { sleep: async () => {}, random: () => 0.5 } };
}

beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        { when: { api: 'openai-responses', last_tool: 'check_availability' }, reply: { content: 'Tuna nafasi saa 10:00 Jumamosi. Ungependa?' } },
        { when: { api: 'openai-responses', last_user: '/massage/' }, reply: { tool_calls: [{ name: 'check_availability', args: { day: 'saturday' } }] } },
        { when: { api: 'openai-responses', last_user: '/Ndiyo/' }, reply: { content: 'Nimekuwekea saa 10:00. Nambari: BK-2001.', usage: { input_tokens: 300, output_tokens: 12 } } },
      ],
    },
  });
});
afterAll(() => server.close());

const SUITE: Record<string, string> = {
  'parley.yaml': 'suite: responses\nagents:\n  booking: { kind: openai-responses, model: gpt-5-mini, system_prompt: prompt.md, tools: tools.json }\n',
  'prompt.md': 'You book massages. Answer in Swahili.\n',
  'tools.json': JSON.stringify([{ name: 'check_availability', parameters: { type: 'object', properties: { day: { type: 'string' } } } }]),
  'scenarios/book.yaml': `id: book
agent: booking
language: sw
user:
  opening: "Nataka massage Jumamosi."
  script: ["Ndiyo, saa 10:00."]
tools:
  check_availability: { returns: { slots: ["10:00"] } }
expect:
  - { metric: content_signals, required: ["BK-2001"] }
  - { metric: tool_correctness, expected: [{ name: check_availability, args: { day: saturday } }] }
`,
};

describe('a kind: openai-responses agent', () => {
  it('runs live against the Responses API, records, and replays offline to the same report', async () => {
    const dir = writeTempSuite(SUITE);
    const live = { OPENAI_API_KEY: 'sk-test-responses-agent-0123', OPENAI_BASE_URL: server.openaiBaseUrl };
    const callsBefore = server.requests.length;
    const recorded = await runSuite({ suitePath: dir, mode: 'record', outDir: 'out/record' }, deps(dir, live));
    const result = recorded.report.results[0]!;
    expect(result.status, result.reason).toBe('pass');
    expect(server.requests.slice(callsBefore).map((request) => request.path)).toEqual(['/v1/responses', '/v1/responses', '/v1/responses']);
    // gpt-5-mini: $0.25 in / $2 out per million tokens; the last call's usage was scripted.
    expect(result.transcript!.turns.at(-1)!.cost_usd).toBeCloseTo((300 * 0.25 + 12 * 2) / 1e6, 12);
    const recording = readFileSync(join(dir, 'recordings/book.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(recording.map((entry) => entry.request.provider)).toEqual(['openai-responses', 'openai-responses', 'openai-responses']);
    expect(readFileSync(join(dir, 'recordings/book.jsonl'), 'utf8')).not.toContain('sk-test-responses-agent');

    const callsAfterRecord = server.requests.length;
    const replayed = await runSuite({ suitePath: dir, outDir: 'out/replay' }, deps(dir, {}));
    expect(server.requests.length).toBe(callsAfterRecord);
    expect(replayed.report.results[0]!.status).toBe('pass');
    expect(replayed.report.results[0]!.transcript).toEqual(result.transcript);
  });
});
