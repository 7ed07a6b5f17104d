import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// The TUI's tmux helper is test support, not part of @parley/tui's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { TmuxSession } from '../../tui/src/test-support/tmux-session.js';
import { copyExample, REPO_ROOT } from './test-support/example-copy.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
/** Colour on as in a person's terminal: whatever the test runner's environment says about colour. */
const COLOUR_ON: NodeJS.ProcessEnv = { NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined };
const ESCAPE = '\u001b[';

const sessions: TmuxSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.kill();
});

function start(name: string, command: string[], cwd: string, columns: number): TmuxSession {
  const session = TmuxSession.start(`parley-console-${process.pid}-${name}-${columns}`, command, { cwd, env: COLOUR_ON, columns, rows: 50 });
  sessions.push(session);
  return session;
}

/** The screen with its colour codes, as the terminal holds it. */
function colouredScreen(session: TmuxSession): string {
  return session.styledScreen();
}

function rowsOf(screen: string): string[] {
  return screen.split('\n').filter((line) => line.startsWith('│ spa_'));
}

describe.skipIf(!TmuxSession.available())('the console in a real terminal with colour on (tmux)', () => {
  it.each([80, 120])('parley run examples/booking at %i columns: every status whole, in colour, every line within the width', async (columns) => {
    const suite = copyExample('booking');
    const session = start('summary', [process.execPath, BIN, 'run', '.', '--out', 'out'], suite, columns);
    const screen = await session.waitFor((text) => text.includes('[exit 0]'));
    const rows = rowsOf(screen);
    expect(rows, screen).toHaveLength(8);
    // Each row is one line whose status cell holds a whole status (was `f` / `ail` / `9m` on three lines).
    for (const row of rows) expect(row, screen).toMatch(/│ (pass|fail) +│/);
    expect(screen).not.toMatch(/│ +(ail|ass|\d+m) +│/);
    expect(screen).toContain('✗ spa_booking_codeswitch (fail, advisory)');
    // The totals line, wrapped at 80 columns (a replay says it spent nothing).
    expect(screen.replaceAll(/\n {2}(?=\S)/g, ' ')).toMatch(/^PASS · 8 scenarios: 7 pass, 1 fail · replay · \$[\d.]+ as recorded, \$0 spent · [\d.]+ s · exit 0$/m);
    // Nothing was wrapped by the terminal: every line ends before the last column.
    for (const line of screen.split('\n')) expect(line.length, line).toBeLessThan(columns);
    // Wider terminals use the width: the agent column appears and the reason gets the room.
    const border = screen.split('\n').find((line) => line.startsWith('┌'))!;
    if (columns === 120) expect(border.length).toBeGreaterThan(100);
    else expect(border.length).toBeLessThanOrEqual(79);
    const coloured = colouredScreen(session);
    expect(coloured).toContain(ESCAPE);
    expect(coloured).toMatch(/\u001b\[31mfail\u001b\[39m/); // the status cell is coloured whole
  });

  it('parley runs list and runs show at 80 columns: the tables give up columns instead of wrapping', async () => {
    const suite = copyExample('booking');
    const run = start('history-run', [process.execPath, BIN, 'run', '.', '--out', 'out'], suite, 80);
    await run.waitFor((text) => text.includes('[exit 0]'));
    const list = start('runs-list', [process.execPath, BIN, 'runs', 'list'], suite, 80);
    const listed = await list.waitFor((text) => text.includes('[exit 0]'));
    expect(listed).toMatch(/^RUN +SUITE +STATUS +P\/F\/E +COST +STARTED$/m);
    expect(listed).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6} +ratiba_booking +pass +7\/1\/0 +\$[\d.]+ +\d{4}-\d\d-\d\d \d\d:\d\d$/m);
    for (const line of listed.split('\n')) expect(line.length, line).toBeLessThan(80);
    const id = /^(\d{8}-\d{6}-[0-9a-f]{6}) /m.exec(listed)?.[1] ?? '';
    const show = start('runs-show', [process.execPath, BIN, 'runs', 'show', id], suite, 80);
    const shown = await show.waitFor((text) => text.includes('[exit 0]'));
    expect(shown).toMatch(/^spa_booking_codeswitch +fail \(advisory\) +\S/m);
    expect(shown).toMatch(/^ {2}\S.*fluency_sw 0\.50 ✗/m);
    for (const line of shown.split('\n')) expect(line.length, line).toBeLessThan(80);
  });

  it('progress lines (plain, as under CI) and the run header fit 80 columns, in colour', async () => {
    const suite = copyExample('booking');
    const session = start('progress', ['env', 'CI=true', process.execPath, BIN, 'run', '.', '--out', 'out'], suite, 80);
    const screen = await session.waitFor((text) => text.includes('[exit 0]'));
    expect(screen).toMatch(/^parley ratiba_booking · replay · 8 scenarios · run \d{8}-\d{6}-[0-9a-f]{6}$/m);
    const progress = screen.split('\n').filter((line) => /^\[\d\/8\]/.test(line));
    expect(progress).toHaveLength(8);
    for (const line of progress) expect(line).toMatch(/^\[\d\/8\] (pass|fail) +spa_[a-z_]+$/);
    expect(colouredScreen(session)).toMatch(/\[\d\/8\] \u001b\[32mpass/);
  });

  it('a configuration error: red `error:`, the location on the first line, long messages wrapped within 80 columns', async () => {
    const suite = copyExample('booking');
    const file = join(suite, 'scenarios', 'spa_reschedule_sw.yaml');
    writeFileSync(file, 'id: spa_reschedule_sw\nagent: booking\nthis_key_is_not_part_of_a_scenario_and_its_name_is_long_enough_to_wrap: true\n');
    const session = start('error', [process.execPath, BIN, 'run', '.', '--out', 'out'], suite, 80);
    const screen = await session.waitFor((text) => text.includes('[exit 2]'));
    expect(screen).toMatch(/^error: scenarios\/spa_reschedule_sw\.yaml:\d+:\d+: /m);
    for (const line of screen.split('\n')) expect(line.length, line).toBeLessThan(80);
    expect(colouredScreen(session)).toMatch(/\u001b\[31merror:\u001b\[39m scenarios/);
  });

  it('--no-color turns colour off in a terminal, and so does FORCE_COLOR=0', async () => {
    const suite = copyExample('booking');
    const flag = start('nocolor', [process.execPath, BIN, 'run', '.', '--out', 'out', '--no-color'], suite, 80);
    await flag.waitFor((text) => text.includes('[exit 0]'));
    expect(colouredScreen(flag)).not.toContain(ESCAPE);
    const forced = start('force0', ['env', 'FORCE_COLOR=0', process.execPath, BIN, 'run', '.', '--out', 'out2'], suite, 80);
    await forced.waitFor((text) => text.includes('[exit 0]'));
    expect(colouredScreen(forced)).not.toContain(ESCAPE);
  });
});
