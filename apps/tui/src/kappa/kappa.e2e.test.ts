import { afterEach, describe, expect, it } from 'vitest';
import type { CalibrationReport } from '@parley/calibration';
import { TmuxSession } from '../test-support/tmux-session.js';
import { startCell } from './confusion-matrix-view.js';
import { PARLEY, reportedExampleCalibration } from './test-support/reported-calibration.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function reportedCalibration(): { dir: string; report: CalibrationReport } {
  const reported = reportedExampleCalibration();
  cleanups.push(reported.remove);
  return reported;
}

describe.skipIf(!TmuxSession.available())('parley tui kappa in a real terminal (tmux)', () => {
  it('Enter on a confusion-matrix cell lists the items behind it: every rating side by side and the judge’s reason; Esc goes back to the same cell', async () => {
    const { dir, report } = reportedCalibration();
    const axis = 'cultural_appropriateness';
    const row = report.comparisons.find((comparison) => comparison.id === 'judge_vs_human')!.axes.find((entry) => entry.axis === axis)!;
    const cell = startCell(row.confusion_matrix);
    const count = row.confusion_matrix[cell.row - 1]![cell.column - 1]!;
    expect(count).toBeGreaterThan(0);

    const session = TmuxSession.start(`parley-kappa-${process.pid}`, [process.execPath, PARLEY, 'tui', 'kappa', '--dir', 'calibration'], { cwd: dir });
    cleanups.push(() => session.kill());
    await session.waitFor((screen) => screen.includes('JUDGE VS HUMAN') && screen.includes('judge ↓ × human →'));
    // Per reviewer comes from the replayed session in .parley/parley.db.
    let screen = await session.waitFor((text) => /rev-a\s+\d\.\d{3}/.test(text));
    expect(screen).toMatch(/rev-b\s+\d\.\d{3}/);
    // One key per frame: a terminal may deliver two Tabs in one read.
    session.keys('Tab');
    await session.waitFor((text) => text.includes('> response_naturalness'));
    session.keys('Tab');
    screen = await session.waitFor((text) => text.includes(`> ${axis}`) && text.includes(`n ${row.n} pairs`));
    expect(screen).toContain(`[${String(count).padStart(3)}]`);
    session.keys('Enter');
    screen = await session.waitFor((text) => text.startsWith(`Kappa · judge vs human · ${axis}`));
    expect(screen).toContain(`judge gave ${cell.row}, human gave ${cell.column}`);
    expect(screen).toMatch(new RegExp(`\\d+ items? · ${count} pairs?`));
    // The report was made from the same set and session: nothing changed since.
    expect(screen).not.toContain('changed since');
    expect(screen).toMatch(/item\s+judge\s+cross\s+rev-a\s+rev-b/);
    expect(screen).toMatch(new RegExp(`^> cal-\\d{4}-\\d{2}-\\d{3}\\s+${cell.row}\\s+[1-5·]\\s+[1-5·]\\s+[1-5·]`, 'm'));
    // The judge's reason from the recording, in full under the list.
    expect(screen).toMatch(new RegExp(`^judge ${cell.row}: \\S+`, 'm'));
    for (const line of screen.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
    // `?` lists the keys of this screen too.
    session.keys('?');
    const overlay = await session.waitFor((text) => text.startsWith(`Keys · Kappa · judge vs human · ${axis}`));
    expect(overlay).toMatch(/^ {2}g G\s+first \/ last item/m);
    session.keys('?');
    await session.waitFor((text) => text.startsWith(`Kappa · judge vs human · ${axis}`));
    session.keys('Escape');
    screen = await session.waitFor((text) => text.includes(`> ${axis}`) && text.includes('judge ↓ × human →'));
    expect(screen).toContain(`[${String(count).padStart(3)}]`);
    session.keys('q');
    await session.waitFor((text) => text.includes('[exit 0]'));
  });
});
