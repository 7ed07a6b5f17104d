import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom, type RunEvent } from '@parley/core';
import { loadFakeScript, startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { openStore } from '@parley/store';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { SPA_SUITE, writeTempSuite } from './test-support/temp-suite.js';

const FAKE_KEY = 'sk-test-RUNNERKEY-abcdef123456';
let server: FakeLlmServer;
let suiteDir: string;

let seed = 0;
function dependencies(env: NodeJS.ProcessEnv, events: RunEvent[] = []): RunDependencies {
  seed += 1; // a new run id per run: ids come from the clock and the random source
  return { cwd: suiteDir, env, clock: manualClock(), random: seededRandom(seed), listeners: [(event) => events.push(event)] };
}

beforeAll(async () => {
  suiteDir = writeTempSuite(SPA_SUITE);
  server = await startFakeLlm({ script: loadFakeScript(join(suiteDir, 'fake-llm.yaml')) });
});

afterAll(async () => {
  await server?.close();
});

describe('runSuite', () => {
  let recorded: Awaited<ReturnType<typeof runSuite>>;

  it('records every scenario through the real OpenAI SDK and gates on blocking failures', async () => {
    recorded = await runSuite(
      { suitePath: suiteDir, mode: 'record', outDir: 'out/record' },
      dependencies({ OPENAI_API_KEY: FAKE_KEY, OPENAI_BASE_URL: server.openaiBaseUrl }),
    );
    const statuses = Object.fromEntries(recorded.report.results.map((result) => [result.scenario_id, result.status]));
    expect(statuses).toEqual({ advisory_fail: 'fail', happy: 'pass', leaky: 'fail', private: 'pass' });
    expect(recorded.exit_code).toBe(1);
    expect(recorded.report.mode).toBe('record');
    const leaky = recorded.report.results.find((result) => result.scenario_id === 'leaky')!;
    expect(leaky.reason).toContain('reservation');
    expect(readdirSync(join(suiteDir, 'recordings')).sort()).toEqual(['advisory_fail.jsonl', 'happy.jsonl', 'leaky.jsonl', 'private.jsonl']);
    const happyRecording = readFileSync(join(suiteDir, 'recordings', 'happy.jsonl'), 'utf8').trim().split('\n');
    expect(happyRecording).toHaveLength(3); // tool call, answer after the tool, second turn
    expect(readFileSync(join(suiteDir, 'recordings', 'happy.jsonl'), 'utf8')).not.toContain(FAKE_KEY);
    expect(recorded.report.cost.input_tokens).toBe(100 + 140 + 160 + 50 + 40 + 60);
    expect(recorded.report.cost_usd).toBeCloseTo(((550 * 0.4) + (93 * 1.6)) / 1e6, 10);
  });

  it('replays offline to the same report, apart from run id and timestamps', async () => {
    const callsBefore = server.requests.length;
    const first = await runSuite({ suitePath: suiteDir, outDir: 'out/replay-1' }, dependencies({}));
    await runSuite({ suitePath: suiteDir, outDir: 'out/replay-2' }, dependencies({}));
    expect(server.requests.length).toBe(callsBefore);
    expect(first.report.mode).toBe('replay');
    const normalise = (text: string) =>
      text.replace(/"run_id": "[^"]+"/, '').replace(/"(started_at|finished_at)": "[^"]+"/g, '').replace(/"duration_ms": \d+/, '');
    const reportOf = (dir: string) => normalise(readFileSync(join(suiteDir, dir, 'report.json'), 'utf8'));
    expect(reportOf('out/replay-1')).toBe(reportOf('out/replay-2'));
    expect(first.report.results.map((result) => [result.scenario_id, result.status])).toEqual(
      recorded.report.results.map((result) => [result.scenario_id, result.status]),
    );
  });

  it('writes the three reports and an event log, and keeps the run in the store', async () => {
    const events: RunEvent[] = [];
    const outcome = await runSuite({ suitePath: suiteDir, outDir: 'out/events' }, dependencies({}, events));
    for (const file of ['report.json', 'junit.xml', 'summary.md', 'events.jsonl']) {
      expect(existsSync(join(suiteDir, 'out/events', file))).toBe(true);
    }
    expect(events[0]).toMatchObject({ type: 'run_started', scenario_ids: ['advisory_fail', 'happy', 'leaky', 'private'] });
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', exit_code: 1 });
    expect(events.filter((event) => event.type === 'scenario_finished')).toHaveLength(4);

    const store = openStore(join(suiteDir, '.parley', 'parley.db'));
    try {
      const run = store.getRun(outcome.run_id);
      expect(run).toMatchObject({ suite: 'spa_test', mode: 'replay', exit_code: 1, finished: true });
      expect(store.getScenarioResults(outcome.run_id).map((result) => result.status).sort()).toEqual(['fail', 'fail', 'pass', 'pass']);
    } finally {
      store.close();
    }
  });

  it('keeps metadata_only content out of every file the run writes for sharing', async () => {
    await runSuite({ suitePath: suiteDir, outDir: 'out/private' }, dependencies({}));
    for (const file of ['report.json', 'junit.xml', 'summary.md', 'events.jsonl']) {
      const text = readFileSync(join(suiteDir, 'out/private', file), 'utf8');
      expect(text, file).not.toContain('Wanjiku');
      expect(text, file).not.toContain('You are not alone');
    }
  });

  it('selects scenarios by id glob and tag', async () => {
    const byGlob = await runSuite({ suitePath: suiteDir, outDir: 'out/glob', globs: ['h*'] }, dependencies({}));
    expect(byGlob.report.results.map((result) => result.scenario_id)).toEqual(['happy']);
    expect(byGlob.exit_code).toBe(0);
    const byTag = await runSuite({ suitePath: suiteDir, outDir: 'out/tag', tags: ['style'] }, dependencies({}));
    expect(byTag.report.results.map((result) => result.scenario_id)).toEqual(['advisory_fail']);
    expect(byTag.exit_code).toBe(0); // an advisory failure never fails the run
  });

  it('turns a recording miss into an error result naming scenario, turn and role', async () => {
    const missDir = mkdtempSync(join(tmpdir(), 'parley-miss-'));
    cpSync(suiteDir, missDir, { recursive: true });
    writeFileSync(join(missDir, 'scenarios/happy.yaml'), SPA_SUITE['scenarios/happy.yaml']!.replace('Saa nne tafadhali.', 'Saa tano tafadhali.'));
    const replay = await runSuite(
      { suitePath: missDir, mode: 'replay', globs: ['happy'], outDir: 'out/miss' },
      { ...dependencies({}), cwd: missDir },
    );
    const result = replay.report.results[0]!;
    expect(result.status).toBe('error');
    expect(result.reason).toContain('scenario happy, turn 2, role agent');
    expect(result.error?.details).toContain('Saa tano');
    expect(result.error?.details).toContain('Saa nne');
    expect(replay.exit_code).toBe(1);
  });

  it('runs nothing once aborted and exits 130', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await runSuite({ suitePath: suiteDir, outDir: 'out/abort', signal: controller.signal }, dependencies({}));
    expect(outcome.interrupted).toBe(true);
    expect(outcome.exit_code).toBe(130);
    expect(outcome.report.results).toHaveLength(0);
  });
});
