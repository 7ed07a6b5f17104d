import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// The TUI's tmux helper is test support, not part of @parley/tui's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { TmuxSession } from '../../../tui/src/test-support/tmux-session.js';
import { REPO_ROOT } from '../test-support/example-copy.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
/** Colour on as in a person's terminal: whatever the test runner's environment says about colour. */
const COLOUR_ON: NodeJS.ProcessEnv = { NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined };

const sessions: TmuxSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.kill();
});

describe.skipIf(!TmuxSession.available())('parley generate in a real terminal with colour on (tmux)', () => {
  it.each([80, 60])('the summary of 10 SGD scenarios at %i columns: ids in colour, nothing wrapped by the terminal', async (columns) => {
    const suite = mkdtempSync(join(tmpdir(), 'parley-generate-tmux-'));
    cpSync(join(REPO_ROOT, 'examples', 'generate'), suite, { recursive: true });
    const session = TmuxSession.start(
      `parley-generate-${process.pid}-${columns}`,
      [process.execPath, BIN, 'generate', '--from-dataset', 'data/sgd_salon_dialogues.json', '--count', '10'],
      { cwd: suite, env: COLOUR_ON, columns, rows: 40 },
    );
    sessions.push(session);
    const screen = await session.waitFor((text) => text.includes('[exit 0]'));
    expect(screen).toMatch(/^wrote 10 scripted scenarios from the SGD dialogues into/m);
    expect(screen.split('\n').filter((line) => /^ {2}sgd_train_29_000\d\d /.test(line))).toHaveLength(10);
    for (const line of screen.split('\n')) expect(line.length, line).toBeLessThan(columns);
    const coloured = session.styledScreen();
    expect(coloured).toMatch(/\u001b\[32msgd_train_29_00053\u001b\[39m/);
  });
});
