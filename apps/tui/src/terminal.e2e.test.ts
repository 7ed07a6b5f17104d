import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeLlmEnv, startHeldFakeLlm, writeLiveSuite, type HeldFakeLlm } from './live/test-support/held-fake-llm.js';
import { exampleCalibrationCopy } from './rate/test-support/rate-fixture.js';
import { TmuxSession } from './test-support/tmux-session.js';

/** The built `parley` (the test setup runs `npm run build`). */
const PARLEY = fileURLToPath(new URL('../../cli/bin/parley.js', import.meta.url));

const sessions: TmuxSession[] = [];
let fake: HeldFakeLlm | undefined;

afterEach(async () => {
  for (const session of sessions.splice(0)) session.kill();
  fake?.releaseAll();
  await fake?.close();
  fake = undefined;
});

/** A shell at 80×24 whose environment says CI=true, as a developer's terminal inside a CI-like setup does. */
function shell(name: string, cwd: string, env: NodeJS.ProcessEnv = {}): { session: TmuxSession; raw: () => string } {
  const rawFile = join(mkdtempSync(join(tmpdir(), 'parley-raw-')), 'pane.bin');
  const session = TmuxSession.shell(`parley-term-${process.pid}-${name}`, {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', ...env },
    rawFile,
  });
  sessions.push(session);
  return { session, raw: () => readFileSync(rawFile, 'latin1') };
}

const ALTERNATE_SCREEN_ON = '\u001B[?1049h';
const ALTERNATE_SCREEN_OFF = '\u001B[?1049l';
const ERASE_SCROLLBACK = '\u001B[3J';

describe.skipIf(!TmuxSession.available())('the terminal around parley tui (tmux)', () => {
  it('draws with CI=true at a terminal, on the alternate screen; 4 and Ctrl-C in one read quit and give the shell its screen back as it was', async () => {
    const dir = exampleCalibrationCopy();
    const before = readFileSync(join(dir, 'human_labelled.yaml'), 'utf8');
    const { session, raw } = shell('rate', dir);
    await session.waitFor((screen) => screen.startsWith('$'));
    session.text('for i in 1 2 3; do echo earlier-output-$i; done');
    session.keys('Enter');
    await session.waitFor((screen) => screen.includes('earlier-output-3'));
    const shellScreen = session.screen().trimEnd();

    session.run([process.execPath, PARLEY, 'tui', 'rate', '--reviewer', 'e2e', '--dir', '.']);
    // Frames are drawn although CI=true (Ink alone would draw nothing until the end).
    const rating = await session.waitFor((screen) => screen.includes('0 done · 25 to do'));
    expect(rating).not.toContain('earlier-output-1');

    // `4` and Ctrl-C arrive in one read: the interrupt is not lost behind the digit.
    session.text('4\u0003');
    const after = await session.waitFor((screen) => screen.trimEnd().endsWith('$'));
    session.text('echo "[exit $?]"');
    session.keys('Enter');
    const final = await session.waitFor((screen) => /^\[exit \d+\]$/m.test(screen));
    // The shell's screen is back as it was, the command line under it, and the prompt on a line of its own.
    expect(after.trimEnd().startsWith(shellScreen)).toBe(true);
    expect(after).not.toContain('done ·');
    expect(final).toMatch(/\n\[exit \d+\]\n\$/);
    const output = raw();
    expect(output).toContain(ALTERNATE_SCREEN_ON);
    expect(output.lastIndexOf(ALTERNATE_SCREEN_OFF)).toBeGreaterThan(output.lastIndexOf(ALTERNATE_SCREEN_ON));
    expect(output).not.toContain(ERASE_SCROLLBACK);
    // The interrupted half rating was never saved.
    expect(readFileSync(join(dir, 'human_labelled.yaml'), 'utf8')).toBe(before);
  });

  it('j and Ctrl-C in one read during a live run stop it (exit 130) and restore the screen', async () => {
    fake = await startHeldFakeLlm();
    const cwd = writeLiveSuite(['s1', 's2', 's3', 's4']);
    const { session, raw } = shell('live', cwd, fakeLlmEnv(fake.server));
    await session.waitFor((screen) => screen.startsWith('$'));
    session.run([process.execPath, PARLEY, 'tui', 'run', '.', '--mode', 'live']);
    fake.release('s1');
    await session.waitFor((screen) => screen.includes('1/4 done'));
    session.text('j\u0003');
    const summary = await session.waitFor((screen) => screen.includes('exit 130'));
    expect(fake.arrived()).not.toContain('s4');
    // The live summary says interrupted, and the whole resume command fits the 80 columns.
    const runId = /run (\d{8}-\d{6}-[0-9a-f]{6})/.exec(summary)![1]!;
    expect(summary).toMatch(/INTERRUPTED · \d scenarios?: .* · exit 130/);
    expect(summary).toContain(`Resume with: parley run --resume ${runId}`);
    session.text('q');
    await session.waitFor((screen) => screen.trimEnd().endsWith('$'));
    session.text('echo "[exit $?]"');
    session.keys('Enter');
    const final = await session.waitFor((screen) => /^\[exit \d+\]$/m.test(screen));
    expect(final).toContain('[exit 130]');
    expect(final).not.toContain('1/4 done');
    expect(raw()).not.toContain(ERASE_SCROLLBACK);

    // A second run that passes; the runs list then shows the first as interrupted, and `/` finds it.
    fake.releaseAll();
    session.text(`clear; '${process.execPath}' '${PARLEY}' run . --mode live > /dev/null; echo "[run $?]"`);
    session.keys('Enter');
    await session.waitFor((screen) => screen.includes('[run 0]'));
    session.run([process.execPath, PARLEY, 'tui']);
    await session.waitFor((screen) => screen.includes('Agents'));
    session.keys('r');
    let runs = await session.waitFor((screen) => screen.includes('2 runs'));
    expect(runs).toMatch(/^> .* pass\s/m);
    expect(runs).toMatch(/^ {2}\d\d-\d\d \d\d:\d\d live_tui\s+interrupted\s/m);
    session.text('/status:int');
    await session.waitFor((screen) => screen.includes('filter> status:int'));
    session.keys('Enter');
    runs = await session.waitFor((screen) => screen.includes('(1 match)'));
    expect(runs).toMatch(/^> .* interrupted\s/m);
    expect(runs).not.toMatch(/ pass\s+\d/);
    session.keys('Enter');
    const header = await session.waitFor((screen) => /^Run\s/.test(screen));
    expect(header).toContain(`interrupted · ${runId}`);
    session.keys('q');
    await session.waitFor((screen) => screen.trimEnd().endsWith('$'));
  }, 120_000);
});
