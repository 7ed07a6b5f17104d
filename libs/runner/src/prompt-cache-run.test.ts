import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { openModelSpend } from '@parley/store';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { writeTempSuite } from './test-support/temp-suite.js';

/**
 * A run whose judge (Anthropic, through the real SDK) reads most of its prompt from the prompt
 * cache: the judge's rubric and instructions go as a cache_control block, and the cached tokens
 * and what they saved reach the scenario's cost, report.json's calls, summary.md and the store.
 */
const SUITE: Record<string, string> = {
  'parley.yaml': `suite: cached
agents:
  booking: { kind: openai, model: gpt-4.1-mini, system_prompt: prompts/booking.md, temperature: 0 }
judge:
  primary: { provider: anthropic, model: claude-opus-4-7 }
settings: { concurrency: 1, retries: { max: 0 } }
`,
  'prompts/booking.md': 'You book massages at Zuri Spa.\n',
  'scenarios/happy.yaml': `id: happy
agent: booking
user:
  opening: "Hello, a massage on Saturday?"
expect:
  - { metric: conversation_judge, criteria: "Offers a slot." }
`,
};

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        { when: { model: 'gpt-4.1-mini' }, reply: { content: 'Saturday 10:00 is free: shall I book it?', usage: { input_tokens: 300, output_tokens: 20 } } },
        {
          when: { model: 'claude-opus-4-7' },
          reply: {
            content: { message_scores: [{ message_index: 1, score: 90, reason: 'Offers a slot.' }], overall_feedback: 'Good.' },
            usage: { input_tokens: 800, output_tokens: 120, cached_input_tokens: 600 },
          },
        },
      ],
    },
  });
});
afterAll(async () => {
  await server?.close();
});

let seed = 3;
function deps(cwd: string, env: NodeJS.ProcessEnv): RunDependencies {
  return { cwd, env, clock: manualClock(), random: seededRandom((seed += 1)), resilience: { sleep: async () => {}, random: () => 0.5 } };
}

describe('prompt caching in a run', () => {
  it('marks the judge prompt cacheable and reports the cached tokens and their saving; a replay reports the same', async () => {
    const dir = writeTempSuite(SUITE);
    const env = { OPENAI_API_KEY: 'sk-test-CACHE-0123', ANTHROPIC_API_KEY: 'sk-ant-test-CACHE-0123', OPENAI_BASE_URL: server.openaiBaseUrl, ANTHROPIC_BASE_URL: server.anthropicBaseUrl };
    const recorded = await runSuite({ suitePath: dir, outDir: 'out/record', mode: 'record' }, deps(dir, env));
    const judge = server.requests.find((request) => request.model === 'claude-opus-4-7')!;
    const system = (judge.body as { system: Array<{ text: string; cache_control?: unknown }> }).system;
    // The static part (instructions, rubric) is the system block, marked as the cache breakpoint;
    // the conversation comes after it, in the user message.
    expect(system).toHaveLength(1);
    expect(system[0]!.cache_control).toEqual({ type: 'ephemeral' });
    expect(system[0]!.text).not.toContain('Saturday 10:00');
    expect(JSON.stringify((judge.body as { messages: unknown }).messages)).toContain('Saturday 10:00');

    const happy = recorded.report.results[0]!;
    // claude-opus-4-7: $5 / $25 per million; 600 cached tokens at 0.1× save 600 × 0.9 × $5 / 1e6.
    const saving = (600 * 0.9 * 5) / 1e6;
    const judgeUsd = ((200 + 600 * 0.1) * 5 + 120 * 25) / 1e6;
    expect(happy.cost).toMatchObject({ calls: 2, cached_input_tokens: 600, cache_saving_usd: expect.closeTo(saving, 12) });
    expect(happy.cost.usd).toBeCloseTo((300 * 0.4 + 20 * 1.6) / 1e6 + judgeUsd, 12);
    expect(happy.calls?.find((call) => call.role === 'judge')).toMatchObject({ cached_input_tokens: 600, cost_usd: expect.closeTo(judgeUsd, 12) });
    expect(happy.calls?.find((call) => call.role === 'agent')).not.toHaveProperty('cached_input_tokens');
    expect(recorded.report.cost).toMatchObject({ cached_input_tokens: 600, cache_saving_usd: expect.closeTo(saving, 12) });
    const onDisk = JSON.parse(readFileSync(join(recorded.out_dir, 'report.json'), 'utf8'));
    expect(onDisk.cost.cached_input_tokens).toBe(600);
    expect(readFileSync(join(recorded.out_dir, 'summary.md'), 'utf8')).toContain('600 input tokens read from the prompt cache, saving $0.0027');

    const spend = openModelSpend(join(dir, '.parley', 'parley.db'));
    try {
      const [run] = spend.runsSince('1970-01-01');
      expect(run!.models.find((row) => row.role === 'judge')).toMatchObject({ cached_input_tokens: 600, cache_saving_usd: expect.closeTo(saving, 12) });
    } finally {
      spend.close();
    }

    const replayed = await runSuite({ suitePath: dir, outDir: 'out/replay' }, deps(dir, {}));
    expect(replayed.report.cost).toEqual(recorded.report.cost);
  });
});
