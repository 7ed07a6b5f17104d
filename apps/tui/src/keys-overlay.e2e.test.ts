import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxSession } from './test-support/tmux-session.js';

/** The built `parley` (the test setup runs `npm run build`). */
const PARLEY = fileURLToPath(new URL('../../cli/bin/parley.js', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** examples/booking after a replayed run in which one blocking scenario fails, with the example calibration folder. */
function bookingWithFailingRun(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-keys-e2e-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(REPO, 'examples/booking'), dir, { recursive: true });
  cpSync(join(REPO, 'calibration'), join(dir, 'calibration'), { recursive: true });
  const scenarioFile = join(dir, 'scenarios', 'spa_booking_swahili_happy.yaml');
  writeFileSync(scenarioFile, readFileSync(scenarioFile, 'utf8').replace('required: ["BK-1042", "SKS4H7T2QX"]', 'required: ["BK-1042", "SKS4H7T2QX", "BK-9999"]'));
  expect(spawnSync(process.execPath, [PARLEY, 'run', '.'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } }).status).toBe(1);
  return dir;
}

function start(name: string, dir: string, args: string[]): TmuxSession {
  const session = TmuxSession.start(`parley-keys-${process.pid}-${name}`, [process.execPath, PARLEY, 'tui', ...args], { cwd: dir });
  cleanups.push(() => session.kill());
  return session;
}

/** `?` on the screen shown: the list of its keys (with `what` among them) over it, within 80×24; `?` closes it. */
async function expectKeysOverlay(session: TmuxSession, title: string, what: RegExp): Promise<void> {
  const before = session.screen();
  session.keys('?');
  const overlay = await session.waitFor((screen) => screen.startsWith(`Keys · ${title}`));
  expect(overlay).toMatch(what);
  expect(overlay).toMatch(/^ {2}Esc\s/m);
  expect(overlay).toMatch(/^ {2}q\s+quit/m);
  for (const line of overlay.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
  session.keys('?');
  await session.waitFor((screen) => screen === before);
}

describe.skipIf(!TmuxSession.available())('? lists the keys on every screen; on the rating screen it opens the rubric, keys at its end (tmux)', () => {
  it('on the index, runs, run, scenario and kappa screens, on the rating screen and on the live run', async () => {
    const dir = bookingWithFailingRun();
    const session = start('triage', dir, []);
    await session.waitFor((screen) => screen.startsWith('Agents') && screen.includes('booking'));
    await expectKeysOverlay(session, 'Agents', /^ {2}K\s/m);
    session.keys('r');
    await session.waitFor((screen) => /^Runs\s+1\/1 runs/.test(screen));
    await expectKeysOverlay(session, 'Runs', /^ {2}\/\s+filter/m);
    session.keys('Enter');
    await session.waitFor((screen) => screen.includes('Enter  open scenario'));
    await expectKeysOverlay(session, 'Run', /^ {2}Enter\s+open scenario/m);
    session.keys('Enter');
    await session.waitFor((screen) => screen.startsWith('Scenario spa_booking_swahili_happy') && screen.includes('verdict'));
    await expectKeysOverlay(session, 'Scenario spa_booking_swahili_happy', /^ {2}t\s/m);
    // Esc closes the list as well, and then goes back as usual.
    session.keys('?');
    await session.waitFor((screen) => screen.startsWith('Keys · Scenario'));
    session.keys('Escape');
    await session.waitFor((screen) => screen.startsWith('Scenario spa_booking_swahili_happy'));
    session.keys('Escape');
    await session.waitFor((screen) => screen.includes('Enter  open scenario'));
    session.keys('Escape');
    await session.waitFor((screen) => /^Runs\s/.test(screen));
    session.keys('Escape');
    await session.waitFor((screen) => screen.startsWith('Agents'));
    session.keys('K');
    await session.waitFor((screen) => screen.startsWith('Kappa'));
    await expectKeysOverlay(session, 'Kappa', /^ {2}c\s/m);
    session.keys('q');
    await session.waitFor((screen) => screen.includes('[exit 0]'));

    const rate = start('rate', dir, ['rate', '--reviewer', 'keys-e2e', '--dir', 'calibration']);
    await rate.waitFor((screen) => screen.includes('0 done · 25 to do'));
    // The rating screen's ? opens the rubric instead; its keys are listed at the rubric's end.
    rate.keys('?');
    await rate.waitFor((screen) => screen.startsWith('Rubric 1.0.0'));
    rate.keys('End');
    const keys = await rate.waitFor((screen) => screen.includes('Keys of the rating screen') && /^ {2}Ctrl-C\s/m.test(screen));
    expect(keys).toMatch(/^ {2}r\s+the rubric/m);
    expect(keys).toMatch(/^ {2}Esc\s/m);
    expect(keys).toMatch(/^ {2}q\s+quit/m);
    for (const line of keys.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
    rate.keys('?');
    await rate.waitFor((screen) => screen.includes('0 done · 25 to do') && !screen.startsWith('Rubric'));
    rate.keys('q');
    await rate.waitFor((screen) => screen.includes('[exit 0]'));

    const live = start('live', dir, ['run', '.']);
    await live.waitFor((screen) => screen.includes('exit 1'));
    await expectKeysOverlay(live, 'Live run', /^ {2}Enter\s+triage/m);
    live.keys('q');
    await live.waitFor((screen) => screen.includes('[exit 1]'));
  }, 150_000);
});
