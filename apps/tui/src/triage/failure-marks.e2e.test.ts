import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxSession } from '../test-support/tmux-session.js';

/** The built `parley` (the test setup runs `npm run build`). */
const PARLEY = fileURLToPath(new URL('../../../cli/bin/parley.js', import.meta.url));
const BOOKING = fileURLToPath(new URL('../../../../examples/booking', import.meta.url));
const SCENARIO = 'spa_booking_codeswitch';
/** The first line of the transcript's window, under the title, rule, three header lines and the tabs. */
const WINDOW_TOP = 6;

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/**
 * A copy of examples/booking whose advisory code-switch scenario fails at three messages: the
 * example's forbidden "reservation" (turn 3) and low fluency score (turns 3 and 4), plus "13:00",
 * forbidden here, which the agent's first message offers. `parley run .` replays it (exit 0: the
 * scenario is advisory).
 */
function markedBookingRun(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-marks-e2e-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(BOOKING, dir, { recursive: true });
  const scenarioFile = join(dir, 'scenarios', `${SCENARIO}.yaml`);
  const scenario = readFileSync(scenarioFile, 'utf8');
  const forbidden = 'forbidden: ["reservation"]';
  expect(scenario).toContain(forbidden);
  writeFileSync(scenarioFile, scenario.replace(forbidden, 'forbidden: ["reservation", "13:00"]'));
  const run = spawnSync(process.execPath, [PARLEY, 'run', '.'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  expect(run.stdout).toContain(`✗ ${SCENARIO} (fail, advisory)`);
  expect(run.status).toBe(0);
  return dir;
}

/** Types `keys` in one tmux call and waits for the screen they lead to (a dropped key fails the test). */
async function press(session: TmuxSession, keys: string[], shows: (screen: string) => boolean): Promise<string> {
  session.keys(...keys);
  return session.waitFor(shows);
}

const topLine = (screen: string): string => screen.split('\n')[WINDOW_TOP] ?? '';

function expectFits(screen: string): void {
  const lines = screen.replace(/\n$/, '').split('\n');
  expect(lines.length).toBeLessThanOrEqual(24);
  for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(80);
}

describe.skipIf(!TmuxSession.available())('failure marks in a real terminal (tmux, colour on, 80×24)', () => {
  it('n and N bring the messages behind failing checks and low scores to the top of the transcript, one after the other', async () => {
    const dir = markedBookingRun();
    // Colour on, as people use it: NO_COLOR is taken out of the test's environment.
    const session = TmuxSession.start(`parley-marks-${process.pid}`, [process.execPath, PARLEY, 'tui'], { cwd: dir, env: { NO_COLOR: undefined } });
    cleanups.push(() => session.kill());

    await session.waitFor((text) => text.includes('Agents') && /booking\s+prompt/.test(text));
    await press(session, ['r'], (text) => /^Runs\s+1\/1 runs/m.test(text));
    await press(session, ['Enter'], (text) => text.includes('Enter  open scenario'));
    // `/`, the text and Enter in one tmux call: the filter is kept (not left open for typing).
    let screen = await press(session, ['/codeswitch', 'Enter'], (text) => text.includes('filter> codeswitch  (1 match)'));
    expect(screen).toMatch(new RegExp(`^> fail adv ${SCENARIO}`, 'm'));
    await press(session, ['Enter'], (text) => text.includes(`Scenario ${SCENARIO}`) && text.includes('verdict'));

    // From the metric table, n opens the transcript with the first marked message at the top.
    screen = await press(session, ['n'], (text) => text.includes('3 marked') && topLine(text).startsWith('✗ assistant · turn 1'));
    expect(screen.split('\n')[WINDOW_TOP + 1]).toBe('  ✗ failed content_signals: forbidden "13:00"');
    expect(screen).toContain('3 marked (1 in view)');
    expect(screen).toMatch(/n N\s+next\/prev failure/);
    expectFits(screen);
    // The mark is red and in inverse video, so it stands out with colour on.
    const styledTop = session.styledScreen().split('\n')[WINDOW_TOP] ?? '';
    const markStyle = /^((?:\u001B\[[0-9;]*m)*)✗/.exec(styledTop)?.[1] ?? '';
    expect(markStyle.match(/\d+/g)).toEqual(expect.arrayContaining(['7', '31']));

    // n: the next marked message (turn 3) comes to the top; the first is scrolled out.
    screen = await press(session, ['n'], (text) => topLine(text).startsWith('✗ assistant · turn 3'));
    expect(screen.split('\n').slice(WINDOW_TOP + 1, WINDOW_TOP + 3)).toEqual(['  ✗ failed content_signals: forbidden "reservation"', '  ! low score fluency_sw: 2/5']);
    expect(screen).not.toContain('assistant · turn 1');
    expect(screen).toMatch(/! assistant · turn 4/);
    expect(screen).toContain('3 marked (2 in view)');
    expectFits(screen);

    // N: back to the previous one.
    screen = await press(session, ['N'], (text) => topLine(text).startsWith('✗ assistant · turn 1'));
    expect(screen).not.toContain('✗ assistant · turn 3');
    expectFits(screen);
    await press(session, ['q'], (text) => text.includes('[exit 0]'));
  });
});
