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
const FAILING = 'spa_booking_swahili_happy';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/**
 * A copy of examples/booking in which one blocking scenario fails: its content_signals expectation
 * also requires a booking number the recorded conversation never mentions. `parley run .` replays
 * it (no network, no keys) and stores the failing run in .parley/parley.db.
 */
function failingBookingRun(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-triage-e2e-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(BOOKING, dir, { recursive: true });
  const scenarioFile = join(dir, 'scenarios', `${FAILING}.yaml`);
  const scenario = readFileSync(scenarioFile, 'utf8');
  const required = 'required: ["BK-1042", "SKS4H7T2QX"]';
  expect(scenario).toContain(required);
  writeFileSync(scenarioFile, scenario.replace(required, 'required: ["BK-1042", "SKS4H7T2QX", "BK-9999"]'));
  const run = spawnSync(process.execPath, [PARLEY, 'run', '.'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  expect(run.stdout).toContain(`✗ ${FAILING} (fail)`);
  expect(run.status).toBe(1);
  return dir;
}

/** Types `key` once and waits for the screen it leads to (a dropped key fails the test). */
async function press(session: TmuxSession, key: string, shows: (screen: string) => boolean): Promise<string> {
  session.keys(key);
  return session.waitFor(shows);
}

function expectFits(screen: string): void {
  for (const line of screen.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
}

describe.skipIf(!TmuxSession.available())('failure triage in a real terminal (tmux)', () => {
  it('goes from the agent index to the failing run and scenario: the failing expectation and the per-message reasons', async () => {
    const dir = failingBookingRun();
    const session = TmuxSession.start(`parley-triage-${process.pid}`, [process.execPath, PARLEY, 'tui'], { cwd: dir });
    cleanups.push(() => session.kill());

    // The index lists the agent; `r` opens every run, Esc comes back.
    let screen = await session.waitFor((text) => text.includes('Agents') && /booking\s+prompt/.test(text));
    screen = await press(session, 'r', (text) => /^Runs\s+1\/1 runs/m.test(text));
    expect(screen).toMatch(/^> \d\d-\d\d \d\d:\d\d ratiba_booki… fail\s+6\s+2\s+·\s+·\s+·\s+·\s+\$0\.36 replay$/m);
    await press(session, 'Escape', (text) => text.includes('Agents'));

    // Enter on the agent: its runs; Enter on the run: failing scenarios first, blocking before advisory.
    screen = await press(session, 'Enter', (text) => text.includes('Runs of booking') && text.includes('8 of the run'));
    expectFits(screen);
    screen = await press(session, 'Enter', (text) => text.includes(`${FAILING} · blocking`));
    const rows = screen.split('\n').filter((line) => /^[> ] (fail|pass)/.test(line));
    expect(rows[0]).toMatch(new RegExp(`^> fail\\s+${FAILING}\\s+booking\\s+content_signals: required "BK-`));
    expect(rows[1]).toMatch(/^ {2}fail adv\s+spa_booking_codeswitch/);
    expect(rows.slice(2).every((row) => row.startsWith('  pass'))).toBe(true);
    expectFits(screen);

    // The scenario opens on its metric table: the failing expectation on top, with its reason.
    screen = await press(session, 'Enter', (text) => text.includes(`Scenario ${FAILING}`) && text.includes('verdict'));
    const table = screen.split('\n');
    const failing = table.findIndex((line) => /^content_signals\s+-\s+-\s+-\s+-\s+-\s+FAIL$/.test(line));
    expect(failing).toBe(table.findIndex((line) => line.includes('verdict')) + 1);
    expect(table[failing + 1]).toBe('    required "BK-9999" missing from the assistant messages');
    expectFits(screen);

    // t: the transcript, each assistant message followed by its judges' scores and reasons.
    screen = await press(session, 't', (text) => text.includes('user · turn 1'));
    expect(screen).toContain('→ check_availability');
    expect(screen).toContain('tool check_availability · mocked');
    for (let page = 0; page < 6 && !screen.includes('▸ 95/100 conversation_judge'); page += 1) {
      const before = screen;
      screen = await press(session, 'PageDown', (text) => text !== before);
    }
    expect(screen).toContain('▸ 95/100 conversation_judge: Checks availability first and states the price');
    expect(screen).toContain('▸ 5/5 fluency_sw: Warm, natural receptionist Swahili');
    expectFits(screen);

    // Esc goes back screen by screen; q quits from anywhere.
    await press(session, 'Escape', (text) => text.includes('Enter  open scenario'));
    await press(session, 'Escape', (text) => text.includes('Runs of booking'));
    await press(session, 'Enter', (text) => text.includes(`${FAILING} · blocking`));
    await press(session, 'q', (text) => text.includes('[exit 0]'));
  });
});
