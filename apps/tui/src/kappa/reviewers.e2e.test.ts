import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxSession } from '../test-support/tmux-session.js';
import { PARLEY, reportedExampleCalibration } from './test-support/reported-calibration.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/**
 * After the report, four more reviewers rate every item (as rev-b did, one point lower on
 * intent where it can be): the set no longer gives the report's matrices.
 */
function addReviewers(dir: string): void {
  const file = join(dir, 'calibration', 'human_labelled.yaml');
  const text = readFileSync(file, 'utf8').replace(/^(\s+- \{ reviewer: )rev-b(, .*)$/gm, (line, start: string, rest: string) =>
    [line, ...['rev-c', 'rev-d', 'rev-e', 'rev-f'].map((reviewer) => `${start}${reviewer}${rest.replace(/intent_comprehension: ([2-5])/, (_, score: string) => `intent_comprehension: ${Number(score) - 1}`)}`)].join('\n'),
  );
  writeFileSync(file, text);
}

describe.skipIf(!TmuxSession.available())('per reviewer on the kappa screen (tmux, colour on)', () => {
  it('at 200×50 lists every reviewer; the report and the set are each named with their time, and a changed set is pointed out', async () => {
    const { dir, remove } = reportedExampleCalibration();
    cleanups.push(remove);
    addReviewers(dir);
    const session = TmuxSession.start(`parley-reviewers-${process.pid}`, [process.execPath, PARLEY, 'tui', 'kappa', '--dir', 'calibration'], { cwd: dir, columns: 200, rows: 50 });
    cleanups.push(() => session.kill());
    const screen = await session.waitFor((text) => /rev-f\s+-?\d\.\d{3}/.test(text), 30_000);
    for (const reviewer of ['rev-a', 'rev-b', 'rev-c', 'rev-d', 'rev-e', 'rev-f']) expect(screen).toMatch(new RegExp(`${reviewer}\\s+-?\\d\\.\\d{3}`));
    expect(screen).not.toMatch(/more below|more reviewers/);
    // Two sources, each with its time: the report on the title line, the set above per reviewer.
    expect(screen).toMatch(/^Kappa\s+report \d{4}-\d\d-\d\d \d\d:\d\d UTC · replay/m);
    expect(screen).toMatch(/per reviewer · set read \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(screen.replace(/\s+/g, ' ')).toContain("the set changed since this report: table and matrices are the report's");
    expect(screen).toContain('parley calibrate report --dir calibration');
    expect(session.styledScreen()).toMatch(/\u001b\[[0-9;]*m/);
  }, 90_000);

  it('at 80×24 pages through the reviewers with PgDn and PgUp', async () => {
    const { dir, remove } = reportedExampleCalibration();
    cleanups.push(remove);
    addReviewers(dir);
    const session = TmuxSession.start(`parley-reviewers-small-${process.pid}`, [process.execPath, PARLEY, 'tui', 'kappa', '--dir', 'calibration'], { cwd: dir });
    cleanups.push(() => session.kill());
    let screen = await session.waitFor((text) => text.includes('more below (PgDn)'), 30_000);
    expect(screen).toMatch(/rev-a\s+-?\d\.\d{3}/);
    expect(screen).not.toMatch(/rev-f\s+-?\d\.\d{3}/);
    for (let page = 0; page < 6 && !/rev-f\s+-?\d\.\d{3}/.test(screen); page += 1) {
      session.keys('PageDown');
      screen = await session.waitFor((text) => text !== screen);
    }
    expect(screen).toMatch(/rev-f\s+-?\d\.\d{3}/);
    expect(screen).toContain('above (PgUp)');
    for (const line of screen.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
  }, 90_000);
});
