import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { exampleCalibrationCopy } from './rate/test-support/rate-fixture.js';
import { TmuxSession } from './test-support/tmux-session.js';
import { createRerecordedRun } from './triage/actions/test-support/rerecorded-run.js';

/** The built `parley` (the test setup runs `npm run build`). */
const PARLEY = fileURLToPath(new URL('../../cli/bin/parley.js', import.meta.url));

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe.skipIf(!TmuxSession.available())('Esc on the first screen (tmux, colour on)', () => {
  it('asks before quitting parley tui: n stays, y quits; one screen down Esc goes back without asking', async () => {
    const fixture = createRerecordedRun();
    cleanups.push(() => fixture.remove());
    const session = TmuxSession.start(`parley-first-esc-${process.pid}`, [process.execPath, PARLEY, 'tui', 'suite'], { cwd: fixture.folder });
    cleanups.push(() => session.kill());
    await session.waitFor((screen) => screen.startsWith('Agents') && screen.includes('booking'));
    session.keys('Escape');
    let screen = await session.waitFor((text) => text.includes('Quit parley tui? y quits · n or Esc stays'));
    expect(screen.startsWith('Agents')).toBe(true);
    session.keys('n');
    screen = await session.waitFor((text) => !text.includes('Quit parley tui?'));
    expect(screen).toMatch(/Enter\s+runs/);
    // One level down, Esc goes back without a question.
    session.keys('r');
    await session.waitFor((text) => text.startsWith('Runs'));
    session.keys('Escape');
    screen = await session.waitFor((text) => text.startsWith('Agents'));
    expect(screen).not.toContain('Quit parley tui?');
    session.keys('Escape');
    await session.waitFor((text) => text.includes('Quit parley tui?'));
    session.keys('y');
    await session.waitFor((text) => text.includes('[exit 0]'));
  }, 90_000);

  it('on the rating screen too, when nothing is unsaved', async () => {
    const dir = exampleCalibrationCopy();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const session = TmuxSession.start(`parley-first-esc-rate-${process.pid}`, [process.execPath, PARLEY, 'tui', 'rate', '--reviewer', 'esc-rev', '--dir', dir], { cwd: dir });
    cleanups.push(() => session.kill());
    await session.waitFor((text) => text.includes('0 done · 25 to do'), 30_000);
    session.keys('Escape');
    await session.waitFor((text) => text.includes('Quit parley tui? y quits · n or Esc stays'));
    session.keys('Escape');
    await session.waitFor((text) => !text.includes('Quit parley tui?') && text.includes('0 done · 25 to do'));
    session.keys('Escape');
    await session.waitFor((text) => text.includes('Quit parley tui?'));
    session.keys('y');
    await session.waitFor((text) => text.includes('[exit 0]'));
  }, 90_000);
});
