import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Text, useInput } from 'ink';
import { manualClock, seededRandom } from '@parley/core';
import { openStore } from '@parley/store';
import { fakeLlmEnv, startHeldFakeLlm, writeLiveSuite, type HeldFakeLlm } from '../live/test-support/held-fake-llm.js';
import { NavigationProvider, useNavigation } from '../navigation.js';
import { eventually, KEYS, press, renderWithProviders, waitForFrame, type Instance } from '../test-support/render-screen.js';
import type { TuiServices } from '../tui-context.js';
import { LiveRunScreen } from './live-run-screen.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The live screen, and in place of every other screen its route (b goes back), so tests see where Enter leads. */
function Probe() {
  const navigation = useNavigation();
  useInput((input) => {
    if (input === 'b' && navigation.route.screen !== 'live') navigation.back();
  });
  return navigation.route.screen === 'live' ? <LiveRunScreen /> : <Text>route {JSON.stringify(navigation.route)}</Text>;
}

/**
 * Event-loop turns a wait checks every turn: real HTTP to the in-process fake and SQLite writes
 * take many turns (a turn with nothing to do is short). After them it keeps checking by time.
 */
const PATIENCE = 100_000;

let rendered: Instance | undefined;
let fake: HeldFakeLlm | undefined;

afterEach(async () => {
  rendered?.unmount();
  rendered = undefined;
  await fake?.close();
  fake = undefined;
});

function openLive(cwd: string, services: Partial<TuiServices>): Instance {
  rendered = renderWithProviders(
    <NavigationProvider start={{ screen: 'live' }}>
      <Probe />
    </NavigationProvider>,
    {
      services: {
        cwd,
        suitePath: cwd,
        storePath: join(cwd, '.parley/parley.db'),
        clock: manualClock(),
        random: seededRandom(7),
        runOptions: { suitePath: cwd },
        ...services,
      },
    },
  );
  return rendered;
}

function expectFits(frame: string): void {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThanOrEqual(24);
  for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
}

function storedRun(cwd: string, runId: string) {
  const store = openStore(join(cwd, '.parley/parley.db'));
  try {
    return { run: store.getRun(runId), finished: store.finishedScenarioIds(runId) };
  } finally {
    store.close();
  }
}

/** Waits until `predicate` holds, e.g. a request count on the fake server (see eventually). */
async function waitUntil(predicate: () => boolean, turns = PATIENCE): Promise<void> {
  expect(await eventually(predicate, turns)).toBe(true);
}

const runIdIn = (frame: string) => /run (\d{8}-\d{6}-[0-9a-f]{6})/.exec(frame)?.[1];

describe('live run view', () => {
  it('runs the booking example in replay and ends on its summary: counts, the failure first, exit code, stored run', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'parley-tui-booking-'));
    cpSync(join(REPO_ROOT, 'examples/booking'), cwd, { recursive: true });
    const setExitCode = vi.fn();
    const screen = openLive(cwd, { setExitCode });

    const frame = await waitForFrame(screen, (text) => text.includes('exit 0'), PATIENCE);
    expect(frame).toContain('PASS · 8 scenarios: 7 pass · 1 fail · exit 0');
    expect(frame).toMatch(/\$0\.3634 of \$1\.0000 budget · [\d.]+ s · replay/);
    expect(frame).toContain('reports: .parley/runs/');
    // The failure stays pinned above the other scenarios, with its reason.
    const lines = frame.split('\n');
    expect(lines[lines.indexOf('Failures (1)') + 1]).toMatch(/^✗ spa_booking_codeswitch\s+fail, advisory content_signals: forbidden "reservat/);
    const others = lines.slice(lines.indexOf('Other scenarios') + 1);
    expect(others.filter((line) => /^✓ spa_/.test(line))).toHaveLength(7);
    expect(others.join('\n')).not.toContain('codeswitch');
    expect(frame).toMatch(/Enter\s+triage/);
    expect(frame).toMatch(/q\s+quit/);
    expectFits(frame);
    expect(setExitCode).toHaveBeenCalledWith(0);
    // The frames on the way show the run going: scenarios waiting or running before they finished.
    expect(screen.frames.some((text) => /\d\/8 done · \d running · \d waiting/.test(text))).toBe(true);

    const runId = runIdIn(frame)!;
    const stored = storedRun(cwd, runId);
    expect(stored.run).toMatchObject({ id: runId, finished: true, exit_code: 0, status: 'pass', scenario_count: 8 });
    expect(stored.finished).toHaveLength(8);

    // Enter opens the run's triage; coming back shows the same run (it is not started again).
    await press(screen, KEYS.enter);
    expect(screen.lastFrame()).toBe(`route {"screen":"run","runId":"${runId}"}`);
    await press(screen, 'b');
    expect(await waitForFrame(screen, (text) => text.includes('exit 0'))).toContain(`run ${runId}`);
    const store = openStore(join(cwd, '.parley/parley.db'));
    try {
      expect(store.listRuns({ limit: 10 }).map((run) => run.id)).toEqual([runId]);
    } finally {
      store.close();
    }
  });

  it('shows each scenario waiting, running and finished, spend against the budget, and failures as they happen', async () => {
    fake = await startHeldFakeLlm(['s2']);
    const cwd = writeLiveSuite(['s1', 's2', 's3', 's4', 's5', 's6']);
    const setExitCode = vi.fn();
    const screen = openLive(cwd, { env: fakeLlmEnv(fake.server), setExitCode, runOptions: { suitePath: cwd, mode: 'live', budgetUsd: 1 } });

    let frame = await waitForFrame(screen, (text) => /▸ s1\s+running/.test(text) && /▸ s2\s+running/.test(text), PATIENCE);
    expect(frame).toContain('0/6 done · 2 running · 4 waiting');
    expect(frame).toMatch(/· s3\s+waiting/);
    expect(frame).toContain('none finished yet · spend $0.0000 of $1.0000 budget');
    expect(frame).toMatch(/Ctrl-C\s+stop/);
    expect(frame).not.toMatch(/q\s+quit/); // q does not leave a run in flight
    expectFits(frame);

    fake.release('s1');
    frame = await waitForFrame(screen, (text) => text.includes('1/6 done'), PATIENCE);
    expect(frame).toMatch(/✓ s1\s+pass/);
    expect(frame).toContain('1 pass · spend $0.0400 of $1.0000 budget');

    fake.release('s2');
    frame = await waitForFrame(screen, (text) => text.includes('Failures (1)'), PATIENCE);
    expect(frame).toMatch(/✗ s2\s+fail content_signals/);
    expect(frame).toContain('1 pass · 1 fail · spend $0.0800');
    expect(setExitCode).not.toHaveBeenCalled();

    fake.releaseAll();
    frame = await waitForFrame(screen, (text) => text.includes('exit 1'), PATIENCE);
    expect(frame).toContain('FAIL · 6 scenarios: 5 pass · 1 fail · exit 1');
    expect(frame).toContain('$0.2400 of $1.0000 budget');
    expectFits(frame);
    expect(setExitCode).toHaveBeenCalledWith(1);
    const stored = storedRun(cwd, runIdIn(frame)!);
    expect(stored.run).toMatchObject({ exit_code: 1, status: 'fail' });
    expect([...stored.finished].sort()).toEqual(['s1', 's2', 's3', 's4', 's5', 's6']);
  });

  it('Ctrl-C stops the run as the headless runner does: finished results kept, the rest not started, exit 130', async () => {
    fake = await startHeldFakeLlm();
    const cwd = writeLiveSuite(['s1', 's2', 's3', 's4', 's5', 's6']);
    const setExitCode = vi.fn();
    const exitNow = vi.fn();
    const screen = openLive(cwd, { env: fakeLlmEnv(fake.server), setExitCode, exitNow, runOptions: { suitePath: cwd, mode: 'live' } });

    fake.release('s1');
    await waitForFrame(screen, (text) => text.includes('1/6 done'), PATIENCE);
    // s2 and s3 are in flight now, held by the fake.
    await waitUntil(() => fake!.arrived().includes('s3'));
    await press(screen, KEYS.ctrlC);
    const frame = await waitForFrame(screen, (text) => text.includes('exit 130'), PATIENCE);
    expect(screen.frames.some((text) => text.includes('Stopping (no new scenarios, finished results kept) · Ctrl-C again quits now'))).toBe(true);
    expect(frame).toContain('INTERRUPTED · 1 scenario: 1 pass · exit 130');
    expect(frame).toContain('Interrupted: finished results are kept');
    // The whole resume command is on screen at 80 columns.
    expect(frame).toContain(`Resume with: parley run --resume ${runIdIn(frame)!}`);
    expect(frame).toMatch(/✓ s1\s+pass/);
    expect(frame).toMatch(/× s2\s+stopped by Ctrl-C/);
    expect(frame).toMatch(/× s3\s+stopped by Ctrl-C/);
    for (const id of ['s4', 's5', 's6']) expect(frame).toMatch(new RegExp(`${id}\\s+not started`));
    expect(fake.arrived().sort()).toEqual(['s1', 's2', 's3']); // nothing started after Ctrl-C
    expect(setExitCode).toHaveBeenCalledWith(130);
    expect(exitNow).not.toHaveBeenCalled();
    expectFits(frame);
    const stored = storedRun(cwd, runIdIn(frame)!);
    expect(stored.finished).toEqual(['s1']);
    expect(stored.run).toMatchObject({ exit_code: 130 });
  });

  it('a resumed run ends on every result of the run: the earlier ones are counted and listed, and said to be from before the resume', async () => {
    fake = await startHeldFakeLlm(['s2']);
    const cwd = writeLiveSuite(['s1', 's2', 's3', 's4']);
    const env = fakeLlmEnv(fake.server);
    let screen = openLive(cwd, { env, runOptions: { suitePath: cwd, mode: 'live' } });
    fake.release('s1');
    fake.release('s2');
    await waitForFrame(screen, (text) => text.includes('2/4 done'), PATIENCE);
    await waitUntil(() => fake!.arrived().includes('s3'));
    await press(screen, KEYS.ctrlC);
    const stopped = await waitForFrame(screen, (text) => text.includes('exit 130'), PATIENCE);
    const runId = runIdIn(stopped)!;
    screen.unmount();

    screen = openLive(cwd, { env, runOptions: { suitePath: cwd, mode: 'live', resume: runId } });
    fake.releaseAll();
    const frame = await waitForFrame(screen, (text) => text.includes('exit 1'), PATIENCE);
    expect(frame).toContain('FAIL · 4 scenarios (2 from before the resume): 3 pass · 1 fail · exit 1');
    // The list holds all four, the failure from before the resume pinned first.
    expect(frame).toMatch(/✗ s2\s+fail/);
    for (const id of ['s1', 's3', 's4']) expect(frame).toMatch(new RegExp(`✓ ${id}\\s+pass`));
    expectFits(frame);
  });

  it('a second Ctrl-C while stopping quits at once with 130', async () => {
    fake = await startHeldFakeLlm();
    const cwd = writeLiveSuite(['s1', 's2', 's3']);
    const exitNow = vi.fn();
    const screen = openLive(cwd, { env: fakeLlmEnv(fake.server), exitNow, runOptions: { suitePath: cwd, mode: 'live' } });
    await waitForFrame(screen, (text) => text.includes('2 running'), PATIENCE);
    // Both presses land before the run has wound down (it needs event-loop turns for that).
    screen.stdin.write(KEYS.ctrlC);
    screen.stdin.write(KEYS.ctrlC);
    expect(exitNow).toHaveBeenCalledWith(130);
    await waitForFrame(screen, (text) => text.includes('exit 130'), PATIENCE);
  });

  it('an interrupt from outside (SIGINT to the process) stops the run like Ctrl-C', async () => {
    fake = await startHeldFakeLlm();
    const cwd = writeLiveSuite(['s1', 's2', 's3']);
    const interrupt = new AbortController();
    const screen = openLive(cwd, { env: fakeLlmEnv(fake.server), signal: interrupt.signal, runOptions: { suitePath: cwd, mode: 'live' } });
    await waitForFrame(screen, (text) => text.includes('2 running'), PATIENCE);
    interrupt.abort();
    const frame = await waitForFrame(screen, (text) => text.includes('exit 130'), PATIENCE);
    expect(frame).toMatch(/s3\s+not started/);
  });

  it('shows a configuration error with file:line:column and exit 2', async () => {
    const cwd = writeLiveSuite(['s1']);
    writeFileSync(join(cwd, 'scenarios', 'broken.yaml'), 'id: broken\nagent: booking\nuser: { opening: "Habari" }\nexpect:\n  - { metric: no_such_metric }\n');
    const setExitCode = vi.fn();
    const screen = openLive(cwd, { setExitCode });
    const frame = await waitForFrame(screen, (text) => text.includes('Configuration error'), PATIENCE);
    expect(frame).toContain('Configuration error · exit 2 · nothing ran');
    expect(frame).toMatch(/error: scenarios\/broken\.yaml:5:\d+: .*no_such_metric/);
    expect(frame).toMatch(/q\s+quit/);
    expect(setExitCode).toHaveBeenCalledWith(2);
    expectFits(frame);
  });

  it('fits 80×24 with many scenarios: failures stay visible (as many as the list leaves rows for), the list is windowed and scrolls', async () => {
    const failing = ['s03', 's05', 's07', 's09', 's12', 's15', 's19', 's21', 's23', 's27', 's29', 's31'];
    fake = await startHeldFakeLlm(failing);
    const ids = Array.from({ length: 40 }, (_, index) => `s${String(index + 1).padStart(2, '0')}`);
    const cwd = writeLiveSuite(ids, 'concurrency: 4');
    const screen = openLive(cwd, { env: fakeLlmEnv(fake.server), runOptions: { suitePath: cwd, mode: 'live' } });
    for (const id of ids.slice(0, 32)) fake.release(id);
    let frame = await waitForFrame(screen, (text) => text.includes('Failures (12)') && text.includes('32/40 done') && text.includes('4 running'), PATIENCE);
    expectFits(frame);
    const marked = (text: string) => text.split('\n').filter((line) => /^[✓✗▸·] s\d\d/.test(line)).map((line) => line.slice(0, 5));
    // While running: the latest nine failures (more than five: the rows are free), then the list
    // with what runs first, five rows of it; the rest is windowed.
    const pinnedWhileRunning = failing.slice(3).map((id) => `✗ ${id}`);
    // Which nine are pinned is fixed; their order is the order they finished in, a race between the
    // four scenarios running at once (s21 can finish after s23), so it is not asserted.
    const whileRunning = marked(frame).slice(0, 13);
    expect(whileRunning.slice(0, 9).sort()).toEqual(pinnedWhileRunning);
    expect(whileRunning.slice(9)).toEqual(['▸ s33', '▸ s34', '▸ s35', '▸ s36']);
    expect(frame).toContain('… 3 earlier');
    expect(frame).toMatch(/Scenarios 1–\d+ of 40/);
    expect(frame).toMatch(/… \d+ more below/);

    fake.releaseAll();
    frame = await waitForFrame(screen, (text) => text.includes('exit 1'), PATIENCE);
    expectFits(frame);
    // Over: the first eight failures pinned, the other four first in the list of the others.
    const all = failing.map((id) => `✗ ${id}`);
    expect(marked(frame).slice(0, 13)).toEqual([...all, '✓ s01']);
    expect(frame).toContain('… 4 more, first in the list below');
    expect(frame).toMatch(/Other scenarios 1–\d+ of 32/);
    await press(screen, KEYS.down, KEYS.down);
    frame = screen.lastFrame() ?? '';
    expect(frame).toMatch(/Other scenarios 3–\d+ of 32/);
    expect(marked(frame).slice(0, 10)).toEqual([...all.slice(0, 8), '✗ s29', '✗ s31']);
    expectFits(frame);
  });

  it('at 200×50 every failure is pinned when the rows are there', async () => {
    const failing = ['s02', 's03', 's04', 's05', 's06', 's07', 's08', 's09'];
    fake = await startHeldFakeLlm(failing);
    const ids = Array.from({ length: 12 }, (_, index) => `s${String(index + 1).padStart(2, '0')}`);
    const cwd = writeLiveSuite(ids, 'concurrency: 4');
    rendered = renderWithProviders(
      <NavigationProvider start={{ screen: 'live' }}>
        <Probe />
      </NavigationProvider>,
      {
        size: { columns: 200, rows: 50 },
        services: { cwd, suitePath: cwd, storePath: join(cwd, '.parley/parley.db'), clock: manualClock(), random: seededRandom(7), env: fakeLlmEnv(fake.server), runOptions: { suitePath: cwd, mode: 'live' } },
      },
    );
    fake.releaseAll();
    const frame = await waitForFrame(rendered, (text) => text.includes('exit 1'), PATIENCE);
    expect(frame).toContain('Failures (8)');
    expect(frame).not.toContain('more, first in the list below');
    for (const id of failing) expect(frame).toMatch(new RegExp(`✗ ${id}\\s+fail`));
  });
});
