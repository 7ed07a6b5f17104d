import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { parleyIn, writeSuite } from './test-support/gate-suite.js';

/**
 * `parley cost` showed the input tokens read from the prompt cache, but not those Anthropic wrote
 * to it (billed at a premium, so in the spend): a team could not see why a model cost more.
 */

const JUDGE_ANSWER = { message_scores: [{ message_index: 1, score: 90, reason: 'Clear.' }], overall_feedback: 'Good.' };
let server: FakeLlmServer;
let suite: string;

beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        { when: { model: 'gpt-4.1-mini' }, reply: { content: 'Karibu!', usage: { input_tokens: 100, output_tokens: 5 } } },
        // The first judge call writes its rubric to the cache, the second reads it.
        { when: { model: 'claude-opus-4-7' }, times: 1, reply: { content: JUDGE_ANSWER, usage: { input_tokens: 2000, output_tokens: 50, cache_write_input_tokens: 1500 } } },
        { when: { model: 'claude-opus-4-7' }, reply: { content: JUDGE_ANSWER, usage: { input_tokens: 2000, output_tokens: 50, cached_input_tokens: 1500 } } },
      ],
    },
  });
  suite = writeSuite({
    'parley.yaml': 'suite: cache_writes\nagents:\n  booking: { kind: openai, model: gpt-4.1-mini }\njudge:\n  primary: { provider: anthropic, model: claude-opus-4-7 }\nsettings: { concurrency: 1, retries: { max: 0 } }\n',
    'scenarios/s1.yaml': 'id: s1\nagent: booking\nuser: { opening: "Habari?" }\nexpect:\n  - { metric: conversation_judge }\n',
    'scenarios/s2.yaml': 'id: s2\nagent: booking\nuser: { opening: "Mambo?" }\nexpect:\n  - { metric: conversation_judge }\n',
  });
  const env = { OPENAI_API_KEY: 'sk-test-CACHEWRITE-0123456789', ANTHROPIC_API_KEY: 'sk-ant-test-CACHEWRITE-0123', OPENAI_BASE_URL: server.openaiBaseUrl, ANTHROPIC_BASE_URL: server.anthropicBaseUrl };
  const run = await parleyIn(suite, ['run', '.', '--mode', 'live', '--no-cache', '--out', 'out'], env);
  expect(run.code, run.stderr).toBe(0);
});

afterAll(async () => {
  await server?.close();
});

describe('parley cost and Anthropic prompt-cache writes', () => {
  it('shows the cache writes beside the cached input, per model, in --format json', async () => {
    const cost = await parleyIn(suite, ['cost', '--format', 'json']);
    expect(cost.code, cost.stderr).toBe(0);
    const byModel = (JSON.parse(cost.stdout) as { by_model: Array<{ model: string; input_tokens: number; cached_input_tokens: number; cache_write_input_tokens: number }> }).by_model;
    expect(byModel.find((row) => row.model === 'claude-opus-4-7')).toMatchObject({ input_tokens: 4000, cached_input_tokens: 1500, cache_write_input_tokens: 1500 });
    expect(byModel.find((row) => row.model === 'gpt-4.1-mini')).toMatchObject({ cached_input_tokens: 0, cache_write_input_tokens: 0 });
  });

  it('shows them in the table, in a column of their own beside "cached in"', async () => {
    const cost = await parleyIn(suite, ['cost']);
    expect(cost.code, cost.stderr).toBe(0);
    expect(cost.stdout).toMatch(/│ model\s+│ calls │ tokens in\/out │ cached in │ cache writes │\s+spend │/);
    expect(cost.stdout).toMatch(/│ anthropic:claude-opus-4-7 │\s+2 │\s+4000\/100 │\s+1500 │\s+1500 │ \$\d+\.\d{4} │/);
    expect(cost.stdout).toMatch(/│ openai:gpt-4\.1-mini\s+│\s+2 │\s+200\/10 │\s+— │\s+— │ \$\d+\.\d{4} │/);
  });
});
