import { manualClock, seededRandom } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { runSuite } from '@parley/runner';
import { fakeLlmEnv, writeLiveSuite } from '../../../live/test-support/held-fake-llm.js';

/**
 * A live suite of scenarios `s1` and `s2` (see writeLiveSuite: each one user turn, passing when
 * the agent says "Karibu") and a fake LLM whose agent answers s1 "Pole" the first time only, so
 * s1 fails in the first run and passes when run again. Every call costs $0.04 at the suite's price.
 */
export async function startRerunFixture(): Promise<{ dir: string; server: FakeLlmServer; env: NodeJS.ProcessEnv; firstRunId: string }> {
  const dir = writeLiveSuite(['s1', 's2']);
  const server = await startFakeLlm({
    script: {
      defaults: { latency_ms: 1 },
      rules: [
        { when: { last_user: '/Habari s1$/' }, times: 1, reply: { content: 'Pole', usage: { input_tokens: 100_000, output_tokens: 0 } } },
        { reply: { content: 'Karibu!', usage: { input_tokens: 100_000, output_tokens: 0 } } },
      ],
    },
  });
  const env = fakeLlmEnv(server);
  const outcome = await runSuite({ suitePath: dir, mode: 'live' }, { cwd: dir, env, clock: manualClock(), random: seededRandom(7) });
  return { dir, server, env, firstRunId: outcome.run_id };
}
