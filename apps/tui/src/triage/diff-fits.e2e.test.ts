import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keptRecordingPath, rerecordingsDir } from '@parley/runner';
import { openStore } from '@parley/store';
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxSession } from '../test-support/tmux-session.js';
import { createRerecordedRun, type RerecordedRun } from './actions/test-support/rerecorded-run.js';

/** The built `parley` (the test setup runs `npm run build`). */
const PARLEY = fileURLToPath(new URL('../../../cli/bin/parley.js', import.meta.url));

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A long answer with wide characters (emoji take two cells) and lines of their own. */
const OLD = Array.from({ length: 12 }, (_, index) => `Mstari ${index + 1}: karibu sana 💅 tuonane Jumamosi saa nne asubuhi, bei ni KES 3,500 kwa massage ya dakika sitini.`).join('\n');
const NEW = OLD.replace('Mstari 3: karibu sana', 'Mstari 3: samahani 🙏 saa nne imechukuliwa, karibu').replace('Mstari 9:', 'Mstari 9 (reservation 💆):');

/**
 * The fixture's `happy` scenario also as `id` (scenario file, recording, kept re-recording and the
 * live run's result), sorted before it in the run's list. With this id the diff's heading is 73
 * characters: the line position after it (` 1-14/40`) takes it past 80 columns.
 */
const LONG_ID = 'booking_swahili_happy_long_id';

function addLongScenario(fixture: RerecordedRun): void {
  const scenarios = join(fixture.suiteDir, 'scenarios');
  writeFileSync(join(scenarios, `${LONG_ID}.yaml`), readFileSync(join(scenarios, 'happy.yaml'), 'utf8').replace('id: happy', `id: ${LONG_ID}`));
  copyFileSync(join(fixture.suiteDir, 'recordings', 'happy.jsonl'), join(fixture.suiteDir, 'recordings', `${LONG_ID}.jsonl`));
  const keep = rerecordingsDir(fixture.storePath, 'run-live');
  copyFileSync(keptRecordingPath(keep, 'happy'), keptRecordingPath(keep, LONG_ID));
  const store = openStore(fixture.storePath);
  try {
    store.saveScenarioResult('run-live', { ...fixture.result('happy'), scenario_id: LONG_ID });
  } finally {
    store.close();
  }
}

describe.skipIf(!TmuxSession.available())('the diff (d) in a real terminal (tmux, colour on)', () => {
  for (const [columns, rows] of [
    [80, 24],
    [200, 50],
  ] as const) {
    it(`fits ${columns}×${rows}: the title stays on the first line, no line wider than the terminal`, async () => {
      const fixture = createRerecordedRun({ old: OLD, new: NEW });
      cleanups.push(() => fixture.remove());
      addLongScenario(fixture);
      const session = TmuxSession.start(`parley-diff-${process.pid}-${columns}`, [process.execPath, PARLEY, 'tui', 'suite'], { cwd: fixture.folder, columns, rows });
      cleanups.push(() => session.kill());
      await session.waitFor((screen) => screen.startsWith('Agents') && screen.includes('booking'));
      session.keys('Enter');
      await session.waitFor((screen) => screen.startsWith('Runs'));
      session.text('/mode:live');
      session.keys('Enter');
      await session.waitFor((screen) => screen.includes('(1 match)'));
      session.keys('Enter');
      await session.waitFor((screen) => screen.startsWith('Run ') && screen.includes(LONG_ID));
      session.keys('Enter');
      await session.waitFor((screen) => screen.startsWith(`Scenario ${LONG_ID}`) && screen.includes('d  diff'));
      session.keys('d');
      // A capture can land while a frame is still being written: wait for the frame's last line (the
      // footer), then check that the title is still on the first one.
      const drawn = (text: string) => /q\s+quit\s*$/.test(text.replace(/\n+$/, ''));
      let screen = await session.waitFor((text) => text.includes('New conversation vs') && drawn(text));
      const check = (text: string) => {
        const lines = text.replace(/\n$/, '').split('\n');
        expect(lines[0], text).toMatch(new RegExp(`^Scenario ${LONG_ID}\\s+run run-live$`));
        expect(lines.length).toBe(rows);
        // A line wider than the terminal would wrap and push the title off the top; the footer is last.
        expect(lines.at(-1), text).toMatch(/q\s+quit/);
      };
      check(screen);
      expect(screen).toContain('Mstari 3');
      // Scrolled to the end and back, the frame holds.
      for (let step = 0; step < 6; step += 1) session.keys('PageDown');
      screen = await session.waitFor((text) => text.includes('Mstari 12') && drawn(text));
      check(screen);
      session.keys('q');
      await session.waitFor((text) => text.includes('[exit 0]'));
    }, 90_000);
  }
});
