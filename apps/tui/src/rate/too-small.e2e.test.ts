import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxSession } from '../test-support/tmux-session.js';
import { exampleCalibrationCopy } from './test-support/rate-fixture.js';

/** The built `parley` (the test setup runs `npm run build`). */
const PARLEY = fileURLToPath(new URL('../../../cli/bin/parley.js', import.meta.url));

/** The screen as one line: the size notice wraps at the narrow width. */
const flat = (screen: string): string => screen.replace(/\s+/g, ' ');

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe.skipIf(!TmuxSession.available())('the rating screen in a terminal made too small (tmux, colour on)', () => {
  it('q with typed scores asks before dropping them: n keeps them for when the window is large again, y quits without saving', async () => {
    const dir = exampleCalibrationCopy();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const before = readFileSync(join(dir, 'human_labelled.yaml'), 'utf8');
    const session = TmuxSession.start(`parley-small-${process.pid}`, [process.execPath, PARLEY, 'tui', 'rate', '--reviewer', 'small-rev', '--dir', dir], { cwd: dir });
    cleanups.push(() => session.kill());
    await session.waitFor((text) => text.includes('0 done · 25 to do'), 30_000);
    session.keys('4');
    await session.waitFor((text) => /intent_comprehension\s+\[4\]/.test(text));
    session.keys('5');
    await session.waitFor((text) => /response_naturalness\s+\[5\]/.test(text));

    session.resize(60, 20);
    let screen = await session.waitFor((text) => text.includes('terminal too small'));
    expect(flat(screen)).toContain('has scores that are not saved');
    session.keys('q');
    screen = await session.waitFor((text) => flat(text).includes('quit anyway and drop them? y/n'));
    session.keys('n');
    await session.waitFor((text) => flat(text).includes('(Esc or q asks first)'));
    session.resize(80, 24);
    screen = await session.waitFor((text) => /response_naturalness\s+\[5\]/.test(text));
    expect(screen).toMatch(/intent_comprehension\s+\[4\]/);

    session.resize(60, 20);
    await session.waitFor((text) => text.includes('terminal too small'));
    session.keys('q');
    await session.waitFor((text) => flat(text).includes('quit anyway and drop them? y/n'));
    session.keys('y');
    await session.waitFor((text) => text.includes('[exit 0]'));
    expect(readFileSync(join(dir, 'human_labelled.yaml'), 'utf8')).toBe(before);
  }, 60_000);
});

describe.skipIf(!TmuxSession.available())('Ctrl-C in parley tui rate (tmux)', () => {
  it('quits at once with exit code 130, not 0', async () => {
    const dir = exampleCalibrationCopy();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const session = TmuxSession.start(`parley-ctrl-c-${process.pid}`, [process.execPath, PARLEY, 'tui', 'rate', '--reviewer', 'ctrl-rev', '--dir', dir], { cwd: dir });
    cleanups.push(() => session.kill());
    await session.waitFor((text) => text.includes('0 done · 25 to do'), 30_000);
    session.keys('C-c');
    await session.waitFor((text) => text.includes('[exit 130]'));
  }, 60_000);
});
