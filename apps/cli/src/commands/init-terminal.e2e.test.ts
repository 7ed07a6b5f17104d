import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// The TUI's tmux helper is test support, not part of @parley/tui's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { TmuxSession } from '../../../tui/src/test-support/tmux-session.js';
import { REPO_ROOT } from '../test-support/example-copy.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');

const sessions: TmuxSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.kill();
});

describe.skipIf(!TmuxSession.available())('parley init at its question in a real terminal (tmux)', () => {
  it.each([
    ['C-c', 'Ctrl-C'],
    ['C-d', 'Ctrl-D'],
  ])('%s stops it: exit 130, nothing written, no "internal error"', async (key) => {
    const project = mkdtempSync(join(tmpdir(), 'parley-init-tmux-'));
    const session = TmuxSession.start(`parley-init-${process.pid}-${key}`, [process.execPath, BIN, 'init'], { cwd: project, columns: 120, rows: 30 });
    sessions.push(session);
    await session.waitFor((text) => text.includes('Number or name [1]:'));
    session.keys(key);
    const screen = await session.waitFor((text) => /\[exit \d+\]/.test(text));
    expect(screen).toContain('parley init: stopped at the question; nothing was written');
    expect(screen).not.toContain('internal error');
    expect(screen).toContain('[exit 130]');
    expect(readdirSync(project)).toEqual([]);
  });
});
