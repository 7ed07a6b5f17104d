import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { loadFakeScript, startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { openStore } from '@parley/store';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { SPA_SUITE, writeTempSuite } from './test-support/temp-suite.js';

let server: FakeLlmServer;
let suiteDir: string;
let seed = 200;

function dependencies(env: NodeJS.ProcessEnv = {}): RunDependencies {
  seed += 1;
  return { cwd: suiteDir, env, clock: manualClock(), random: seededRandom(seed) };
}

beforeAll(async () => {
  suiteDir = writeTempSuite(SPA_SUITE);
  server = await startFakeLlm({ script: loadFakeScript(join(suiteDir, 'fake-llm.yaml')) });
  await runSuite(
    { suitePath: suiteDir, mode: 'record', outDir: 'out/record' },
    dependencies({ OPENAI_API_KEY: 'sk-test-FLAKY-0123456789', OPENAI_BASE_URL: server.openaiBaseUrl }),
  );
});

afterAll(async () => {
  await server?.close();
});

describe('parley run with scenarios marked flaky in triage', () => {
  it('reports the marks of its suite beside those scenarios, without changing the gate', async () => {
    const store = openStore(join(suiteDir, '.parley', 'parley.db'));
    store.markFlaky({ suite: 'spa_test', scenario_id: 'leaky', run_id: 'run-triaged', marked_at: '2026-11-24T16:05:00.000Z', note: 'judge wavers' });
    store.markFlaky({ suite: 'other_suite', scenario_id: 'happy', run_id: 'run-x', marked_at: '2026-11-24T16:05:00.000Z', note: '' });
    store.close();

    const outcome = await runSuite({ suitePath: suiteDir, outDir: 'out/marked' }, dependencies());
    expect(outcome.exit_code).toBe(1); // leaky still fails the run
    const report = JSON.parse(readFileSync(join(outcome.out_dir, 'report.json'), 'utf8')) as { results: Array<{ scenario_id: string; status: string; flaky_mark?: unknown }> };
    expect(report.results.filter((result) => result.flaky_mark).map((result) => [result.scenario_id, result.status, result.flaky_mark])).toEqual([
      ['leaky', 'fail', { marked_at: '2026-11-24T16:05:00.000Z', run_id: 'run-triaged', note: 'judge wavers' }],
    ]);
    const summary = readFileSync(join(outcome.out_dir, 'summary.md'), 'utf8');
    expect(summary).toContain('| `leaky` | FAIL (marked flaky in triage on 2026-11-24) |');
    expect(summary).not.toContain('`happy` | PASS (marked');
  });
});
