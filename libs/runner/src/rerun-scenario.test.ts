import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { loadFakeScript, startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { openStore } from '@parley/store';
import { estimateRerunCost, rerunModes, rerunOptions, storedRepeat } from './rerun-scenario.js';
import { scenarioFilter } from './select-scenarios.js';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { locateTriage } from './triage-location.js';
import { SPA_SUITE, writeTempSuite } from './test-support/temp-suite.js';

const FAKE_KEY = 'sk-test-RERUNKEY-abcdef123456';
let server: FakeLlmServer;
let suiteDir: string;
let seed = 300;

function dependencies(): RunDependencies {
  seed += 1;
  return { cwd: suiteDir, env: { OPENAI_API_KEY: FAKE_KEY, OPENAI_BASE_URL: server.openaiBaseUrl }, clock: manualClock(), random: seededRandom(seed) };
}

beforeAll(async () => {
  suiteDir = writeTempSuite({
    ...SPA_SUITE,
    'parley.yaml': `${SPA_SUITE['parley.yaml']!}pricing:\n  gpt-4.1-mini: { input: 0.40, output: 1.60 }\n`,
  });
  server = await startFakeLlm({ script: loadFakeScript(join(suiteDir, 'fake-llm.yaml')) });
});

afterAll(async () => {
  await server?.close();
});

describe('re-running one scenario of a stored run', () => {
  it('runs only that scenario through runSuite, stores it as a new run, and its cost matches the estimate', async () => {
    const first = await runSuite({ suitePath: suiteDir, mode: 'live', outDir: 'out/first' }, dependencies());
    const storePath = join(suiteDir, '.parley', 'parley.db');
    const store = openStore(storePath);
    const run = store.getRun(first.run_id)!;
    const previous = store.getScenarioResults(run.id).find((result) => result.scenario_id === 'leaky')!;
    store.close();
    expect(previous.status).toBe('fail');
    expect(previous.cost.usd).toBeGreaterThan(0);

    const location = locateTriage(run, 'leaky', { suitePath: suiteDir, storePath, cwd: suiteDir });
    expect(rerunModes(location, 'leaky')).toEqual(['live']); // no recording of it in the suite
    mkdirSync(location.recordingsDir, { recursive: true });
    writeFileSync(join(location.recordingsDir, 'leaky.jsonl'), '');
    expect(rerunModes(location, 'leaky')).toEqual(['replay', 'live']);

    const estimate = estimateRerunCost(previous, storedRepeat(run), { mode: 'live', repeat: 2 });
    expect(estimate.usd).toBeCloseTo(previous.cost.usd! * 2, 10);
    expect(estimate.basis).toBe('2 × what leaky cost before');

    const options = rerunOptions(run, 'leaky', location, { mode: 'live', repeat: 2 }, storePath);
    const again = await runSuite(options, dependencies());
    expect(again.run_id).not.toBe(first.run_id);
    expect(again.report.results.map((result) => result.scenario_id)).toEqual(['leaky']);
    expect(again.report.results[0]!.status).toBe('fail');
    expect(again.report.cost.usd).toBeCloseTo(estimate.usd!, 10);

    const reopened = openStore(storePath);
    try {
      const stored = reopened.getRun(again.run_id)!;
      expect(stored.mode).toBe('live');
      expect(storedRepeat(stored)).toBe(2);
      expect(reopened.getScenarioResults(again.run_id).map((result) => result.scenario_id)).toEqual(['leaky']);
    } finally {
      reopened.close();
    }
  });

  it('a replay costs nothing; a cost per attempt divides an earlier --repeat; an unknown price stays unknown', () => {
    const cost = (usd: number | null) => ({ scenario_id: 's1', cost: { input_tokens: 1, output_tokens: 1, usd, calls: 1 } });
    expect(estimateRerunCost(cost(0.3), 1, { mode: 'replay', repeat: 3 }).usd).toBe(0);
    const perAttempt = estimateRerunCost(cost(0.3), 3, { mode: 'live', repeat: 1 });
    expect(perAttempt.usd).toBeCloseTo(0.1, 10);
    expect(perAttempt.basis).toBe('1 × what s1 cost per attempt of 3 before');
    expect(estimateRerunCost(cost(null), 1, { mode: 'live', repeat: 2 })).toMatchObject({ usd: null });
  });

  it('keeps the run’s baseline, strictness and budget, and matches the scenario id literally', () => {
    const run = { id: 'r', mode: 'live' as const, out_dir: 'out', options: { baseline: 'baseline.json', strict: true, budget_usd: 2, repeat: 3 } };
    expect(rerunOptions(run, 'a+b', { suiteDir: '/suite' }, { mode: 'replay', repeat: 1 }, '/db')).toEqual({
      suitePath: '/suite',
      globs: ['a\\+b'],
      mode: 'replay',
      storePath: '/db',
      baseline: 'baseline.json',
      strict: true,
      budgetUsd: 2,
    });
  });

  it('re-runs one variant of a scenario: its escaped id selects it and no other variant', () => {
    const run = { id: 'r', mode: 'live' as const, out_dir: 'out', options: {} };
    const { globs } = rerunOptions(run, 'greet[lang=zu,persona=rushed]', { suiteDir: '/suite' }, { mode: 'replay', repeat: 1 }, '/db');
    const keep = scenarioFilter({ globs: globs! });
    const variants = ['greet[lang=zu,persona=rushed]', 'greet[lang=zu,persona=careful]', 'greet[lang=en,persona=rushed]'].map((id) => ({ id, scenario: 'greet', tags: [] }));
    expect(variants.filter(keep).map((variant) => variant.id)).toEqual(['greet[lang=zu,persona=rushed]']);
  });
});
