import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { exampleCalibrationCopy } from './rate/test-support/rate-fixture.js';
import { TmuxSession } from './test-support/tmux-session.js';

/** The built `parley` (the test setup runs `npm run build`). */
const PARLEY = fileURLToPath(new URL('../../cli/bin/parley.js', import.meta.url));
const BOOKING = fileURLToPath(new URL('../../../examples/booking', import.meta.url));

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A copy of examples/booking after one offline `parley run .` (eight scenarios in the run). */
function bookingRun(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-keys-e2e-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(BOOKING, dir, { recursive: true });
  const run = spawnSync(process.execPath, [PARLEY, 'run', '.'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  expect(run.status, run.stderr).toBe(0);
  return dir;
}

function start(name: string, args: string[], cwd: string): TmuxSession {
  const session = TmuxSession.start(`parley-keys-${process.pid}-${name}`, [process.execPath, PARLEY, ...args], { cwd });
  cleanups.push(() => session.kill());
  return session;
}

/** The scenario on the highlighted row of the run screen. */
function highlighted(screen: string): string | undefined {
  return /^> .*?(spa_\S+)/m.exec(screen)?.[1];
}

describe.skipIf(!TmuxSession.available())('keys that arrive in one read, and the / filter (tmux, 80×24, colour on)', () => {
  it('handles every key of a chunk: "jj" moves two rows, "kG" one up then to the last; a filter puts the cursor on its first match', async () => {
    const dir = bookingRun();
    const session = start('run', ['tui'], dir);
    await session.waitFor((text) => text.includes('Agents'), 30_000);
    session.keys('r');
    await session.waitFor((text) => /^Runs\s/m.test(text));
    session.keys('Enter');
    let screen = await session.waitFor((text) => /^Run\s+1\/8 scenarios/m.test(text));
    expect(highlighted(screen)).toBe('spa_booking_codeswitch');
    expect(session.styledScreen()).toMatch(/\u001b\[[0-9;]*m/);

    // Two keys in one write: the terminal hands them to the app in one read.
    session.text('jj');
    screen = await session.waitFor((text) => /^Run\s+3\/8 scenarios/m.test(text));
    expect(highlighted(screen)).toBe('spa_booking_swahili_happy');
    session.text('kG');
    screen = await session.waitFor((text) => /^Run\s+8\/8 scenarios/m.test(text));
    expect(highlighted(screen)).toBe('spa_slot_unavailable_en');

    // From the third row, `/sw` keeps several scenarios; the cursor goes to the first of them, so
    // Enter opens what the filter matched first (before, it kept the third row).
    session.keys('g');
    await session.waitFor((text) => /^Run\s+1\/8 scenarios/m.test(text));
    session.text('jj');
    await session.waitFor((text) => /^Run\s+3\/8 scenarios/m.test(text));
    session.keys('/');
    session.text('sw');
    session.keys('Enter');
    screen = await session.waitFor((text) => /^Run\s+\d\/[3-7] scenarios \(filtered\)/m.test(text));
    expect(screen).toMatch(/^Run\s+1\/[3-7] scenarios \(filtered\)/m);
    const rows = screen.split('\n');
    const firstRow = rows[rows.findIndex((line) => /^\s+status\s+scenario/.test(line)) + 1]!;
    expect(firstRow.startsWith('> ')).toBe(true);
    const first = highlighted(screen)!;
    session.keys('Enter');
    screen = await session.waitFor((text) => text.startsWith('Scenario'));
    expect(screen).toContain(first);
  }, 90_000);

  it('on the rating screen, "4?" in one read scores 4 and opens the rubric at the next axis', async () => {
    const dir = exampleCalibrationCopy();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const session = start('rate', ['tui', 'rate', '--reviewer', 'keys-rev', '--dir', dir], dir);
    await session.waitFor((text) => text.includes('0 done · 25 to do'), 30_000);
    session.text('4?');
    const screen = await session.waitFor((text) => text.startsWith('Rubric 1.0.0'));
    expect(screen.split('\n')[2]).toContain('response_naturalness:');
    session.keys('?');
    await session.waitFor((text) => /intent_comprehension\s+\[4\]/.test(text));
  }, 60_000);
});
