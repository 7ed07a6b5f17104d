import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { readRecording } from '@parley/providers';
import { openStore } from '@parley/store';
import { acceptRerecording, keptRecordingPath, loadRerecording, rerecordingsDir } from './rerecording.js';
import { runSuite } from './run-suite.js';
import type { RunDependencies, RunOptions } from './run-options.js';
import { writeTempSuite } from './test-support/temp-suite.js';

/** One judged scenario: an OpenAI agent, an Anthropic judge, both through the real SDKs against the fake server. */
const SUITE: Record<string, string> = {
  'parley.yaml': `suite: judged_rerecording
agents:
  booking: { kind: openai, model: gpt-4.1-mini, temperature: 0 }
judge:
  primary: { provider: anthropic, model: claude-opus-4-7 }
settings: { retries: { max: 0 } }
`,
  'scenarios/greet.yaml': `id: greet
agent: booking
user:
  opening: "Hello, do you do massages?"
expect:
  - { metric: conversation_judge }
`,
};

let server: FakeLlmServer;
let suiteDir: string;
let seed = 300;

function dependencies(): RunDependencies {
  seed += 1;
  return {
    cwd: suiteDir,
    env: { OPENAI_API_KEY: 'sk-test-JR-openai-0123', ANTHROPIC_API_KEY: 'sk-ant-test-JR-0123', OPENAI_BASE_URL: server.openaiBaseUrl, ANTHROPIC_BASE_URL: server.anthropicBaseUrl },
    clock: manualClock(),
    random: seededRandom(seed),
    resilience: { sleep: async () => {}, random: () => 0.5 },
  };
}

async function run(options: Partial<RunOptions>) {
  const outcome = await runSuite({ suitePath: suiteDir, outDir: `out/${(seed += 1)}`, ...options }, dependencies());
  const store = openStore(join(suiteDir, '.parley', 'parley.db'));
  const result = store.getScenarioResults(outcome.run_id)[0]!;
  store.close();
  const keepDir = rerecordingsDir(join(suiteDir, '.parley', 'parley.db'), outcome.run_id);
  const rerecording = loadRerecording({ mode: outcome.report.mode, keepDir, recordingsDir: join(suiteDir, 'recordings'), scenarioId: 'greet' });
  return { outcome, result, rerecording, keepDir };
}

beforeAll(async () => {
  suiteDir = writeTempSuite(SUITE);
  server = await startFakeLlm({
    script: {
      rules: [
        { when: { model: 'gpt-4.1-mini' }, reply: { content: 'Yes! We do 60 and 90 minute massages.', usage: { input_tokens: 50, output_tokens: 10 } } },
        {
          when: { model: 'claude-opus-4-7' },
          reply: { content: { message_scores: [{ message_index: 1, score: 85, reason: 'Answers the question.' }], overall_feedback: 'Fine.' }, usage: { input_tokens: 400, output_tokens: 60 } },
        },
      ],
    },
  });
});

afterAll(async () => {
  await server?.close();
});

describe('a live run with live judging', () => {
  it('keeps the judge calls in its recording, so the accepted recording replays the whole scenario offline', async () => {
    const live = await run({ mode: 'live' });
    expect(live.result.status).toBe('pass');
    const kept = readRecording(keptRecordingPath(live.keepDir, 'greet'));
    expect(kept.map((entry) => entry.role)).toEqual(['agent', 'judge']);
    expect(readFileSync(keptRecordingPath(live.keepDir, 'greet'), 'utf8')).not.toContain('sk-');

    expect(acceptRerecording(live.rerecording!, { result: live.result })).toMatchObject({ accepted: true, unchanged: false });
    const calls = server.requests.length;
    const replay = await run({ mode: 'replay' });
    expect(server.requests.length).toBe(calls);
    expect(replay.result.status).toBe('pass');
    expect(replay.result.metrics[0]).toMatchObject({ metric: 'conversation_judge', score: 0.85 });
  });

  it('refuses to accept a recording whose verdict came from the judge cache', async () => {
    const cached = await run({ mode: 'live' });
    expect(cached.result.metrics[0]?.details?.['cached']).toBe(true);
    const before = readFileSync(join(suiteDir, 'recordings', 'greet.jsonl'), 'utf8');
    const outcome = acceptRerecording(cached.rerecording!, { result: cached.result });
    expect(outcome).toEqual({
      accepted: false,
      reason: "conversation_judge came from the judge cache, so the judge calls are not in the run's recording; re-record it with: parley run --mode record --scenario greet",
    });
    expect(readFileSync(join(suiteDir, 'recordings', 'greet.jsonl'), 'utf8')).toBe(before);
  });
});
