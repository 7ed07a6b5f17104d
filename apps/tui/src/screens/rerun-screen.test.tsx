import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '@parley/fake-llm';
import { openStore } from '@parley/store';
import { KEYS, press, renderApp, waitForFrame } from '../test-support/render-screen.js';
import { overflow } from '../triage/test-support/triage-store.js';
import { startRerunFixture } from '../triage/rerun/test-support/rerun-suite.js';

/** Event-loop turns a re-run may take: it makes HTTP calls to the fake LLM (slow on a loaded machine). */
const RUN_TURNS = 50_000;

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function openRerun(from: 'run' | 'scenario') {
  const fixture = await startRerunFixture();
  server = fixture.server;
  const storePath = join(fixture.dir, '.parley', 'parley.db');
  const services = { cwd: fixture.dir, env: fixture.env, suitePath: fixture.dir, storePath };
  const rendered = renderApp(from === 'run' ? { screen: 'run', runId: fixture.firstRunId } : { screen: 'scenario', runId: fixture.firstRunId, scenarioId: 's1' }, { services });
  return { ...fixture, storePath, rendered };
}

describe('RerunScreen', () => {
  it('R on the scenario screen shows the estimated cost before anything runs, then the new result beside the old', async () => {
    const { rendered, storePath, firstRunId, server: fake } = await openRerun('scenario');
    await waitForFrame(rendered, (text) => text.includes('Scenario s1') && text.includes('R  re-run'));
    await press(rendered, 'R');
    const ask = await waitForFrame(rendered, (text) => text.includes('est. cost'));
    expect(ask).toContain('Re-run s1');
    expect(ask).toMatch(/before\s+✗ fail · run \S+ · live · \$0\.0400/);
    expect(ask).toContain('(no recording of it: live only)');
    expect(ask).toMatch(/est\. cost\s+\$0\.0400\s+1 × what s1 cost before/);
    expect(ask).toContain('Start the re-run? Enter runs s1 live against the models (estimated $0.0400)');
    expect(overflow(ask)).toEqual({ wide: [], rows: 0 });
    const callsBefore = fake.requests.length;

    // Three attempts: the estimate follows, and nothing has been called yet.
    await press(rendered, '3');
    expect(await waitForFrame(rendered, (text) => text.includes('$0.1200'))).toMatch(/est\. cost\s+\$0\.1200\s+3 × what s1 cost before/);
    await press(rendered, '-', '-');
    await waitForFrame(rendered, (text) => /est\. cost\s+\$0\.0400/.test(text));
    expect(fake.requests.length).toBe(callsBefore);

    await press(rendered, KEYS.enter);
    const done = await waitForFrame(rendered, (text) => text.includes('after (re-run)'), RUN_TURNS);
    expect(done).toMatch(/Re-run: ✓ pass \(was fail\) · spent \$0\.0400, estimated \$0\.0400/);
    expect(done).toMatch(/status\s+✗ FAIL\s+✓ pass/);
    expect(done).toMatch(/cost\s+\$0\.0400\s+\$0\.0400/);
    expect(done).toMatch(/content_signals\s+FAIL\s+-\s+PASS\s+-\s+changed/);
    expect(overflow(done)).toEqual({ wide: [], rows: 0 });
    const newRunId = /run\s+\S+\s+(\d{8}-\d{6}-[0-9a-f]{6})/.exec(done)?.[1];
    expect(newRunId).toBeDefined();
    expect(newRunId).not.toBe(firstRunId);

    // Stored like any other run: only s1, live.
    const store = openStore(storePath);
    try {
      expect(store.getRun(newRunId!)).toMatchObject({ mode: 'live', status: 'pass' });
      expect(store.getScenarioResults(newRunId!).map((result) => result.scenario_id)).toEqual(['s1']);
    } finally {
      store.close();
    }

    // Enter opens the new result; Esc comes back to the comparison, kept.
    await press(rendered, KEYS.enter);
    await waitForFrame(rendered, (text) => text.includes('Scenario s1') && text.includes(`run ${newRunId}`));
    await press(rendered, KEYS.escape);
    await waitForFrame(rendered, (text) => text.includes('after (re-run)'), RUN_TURNS);
  });

  it('R on the run screen re-runs the selected scenario with --repeat and shows every attempt', async () => {
    const { rendered } = await openRerun('run');
    const run = await waitForFrame(rendered, (text) => text.includes('R  re-run'));
    expect(run).toMatch(/> fail\s+s1/);
    await press(rendered, 'R', '3');
    await waitForFrame(rendered, (text) => text.includes('$0.1200'));
    await press(rendered, KEYS.enter);
    const done = await waitForFrame(rendered, (text) => text.includes('after (re-run)'), RUN_TURNS);
    expect(done).toMatch(/mode\s+live\s+live · 3 attempts/);
    expect(done).toMatch(/attempts\s+✓ ✓ ✓/);
    expect(done).toMatch(/spent \$0\.1200, estimated \$0\.1200/);
    // R asks again (the choice is kept), Esc goes back to the run.
    await press(rendered, 'R');
    await waitForFrame(rendered, (text) => text.includes('est. cost'));
    await press(rendered, KEYS.escape);
    await waitForFrame(rendered, (text) => text.includes('open scenario'));
  });
});
