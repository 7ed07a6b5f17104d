import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '@parley/fake-llm';
import { openStore } from '@parley/store';
import { TmuxSession } from '../test-support/tmux-session.js';
import { startRerunFixture } from './rerun/test-support/rerun-suite.js';

/** The built `parley` (the test setup runs `npm run build`). */
const PARLEY = fileURLToPath(new URL('../../../cli/bin/parley.js', import.meta.url));

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Types `key` once and waits for the screen it leads to (a dropped key fails the test). */
async function press(session: TmuxSession, key: string, shows: (screen: string) => boolean): Promise<string> {
  session.keys(key);
  return session.waitFor(shows);
}

function expectFits(screen: string): void {
  for (const line of screen.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
}

describe.skipIf(!TmuxSession.available())('re-run from triage in a real terminal (tmux, against tools/fake-llm)', () => {
  it('opens the failing scenario, re-runs it live after showing its cost, then shows the old and the new result', async () => {
    const { dir, server, env, firstRunId } = await startRerunFixture();
    const fake: FakeLlmServer = server;
    cleanups.push(() => fake.close());
    // Colour on, as people use it (the pane capture reads the text).
    const { NO_COLOR: _noColour, ...colourEnv } = env;
    const session = TmuxSession.start(`parley-rerun-${process.pid}`, [process.execPath, PARLEY, 'tui', '.'], { cwd: dir, env: colourEnv });
    cleanups.push(() => session.kill());

    await session.waitFor((text) => text.includes('Agents') && /booking\s+prompt/.test(text));
    await press(session, 'Enter', (text) => /^Runs/m.test(text) && text.includes('live'));
    let screen = await press(session, 'Enter', (text) => /^Run\s/m.test(text) && text.includes('R  re-run'));
    expect(screen).toMatch(/> fail\s+s1\s+booking/);
    await press(session, 'Enter', (text) => text.includes('Scenario s1'));

    const callsBefore = fake.requests.length;
    screen = await press(session, 'R', (text) => text.includes('est. cost'));
    expect(screen).toMatch(/^Re-run s1\s+from run /m);
    expect(screen).toMatch(/est\. cost\s+\$0\.0400\s+1 × what s1 cost before/);
    expect(screen).toContain('Start the re-run? Enter runs s1 live against the models (estimated $0.0400)');
    expectFits(screen);
    expect(fake.requests.length).toBe(callsBefore); // nothing runs before Enter

    screen = await press(session, 'Enter', (text) => text.includes('after (re-run)'));
    expect(screen).toMatch(/Re-run: ✓ pass \(was fail\) · spent \$0\.0400, estimated \$0\.0400/);
    expect(screen).toMatch(/status\s+✗ FAIL\s+✓ pass/);
    expect(screen).toMatch(/content_signals\s+FAIL\s+-\s+PASS\s+-\s+changed/);
    expectFits(screen);
    expect(fake.requests.length).toBe(callsBefore + 1);
    const newRunId = new RegExp(`run\\s+${firstRunId}\\s+(\\d{8}-\\d{6}-[0-9a-f]{6})`).exec(screen)?.[1];
    expect(newRunId).toBeDefined();

    // The new run is in the history like any other: Esc back to the runs list shows it.
    await press(session, 'Escape', (text) => text.includes('Scenario s1'));
    await press(session, 'Escape', (text) => /^Run\s/m.test(text));
    screen = await press(session, 'Escape', (text) => /^Runs of booking\s+1\/2 runs/m.test(text));
    expect(screen).toMatch(/^> \d\d-\d\d \d\d:\d\d live_tui\s+pass\s+1\s/m);
    await press(session, 'q', (text) => text.includes('[exit 0]'));

    const store = openStore(join(dir, '.parley', 'parley.db'));
    try {
      expect(store.getRun(newRunId!)).toMatchObject({ mode: 'live', status: 'pass' });
    } finally {
      store.close();
    }
  });
});
