import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxSession } from '../test-support/tmux-session.js';
import { EXAMPLE_CALIBRATION } from './test-support/rate-fixture.js';

/** The built `parley` (the test setup runs `npm run build`). */
const PARLEY = fileURLToPath(new URL('../../../cli/bin/parley.js', import.meta.url));

/**
 * An isiZulu support conversation as production logs it, with no name field: the names are only
 * in the words, glued to their prefixes (ngi-ngu-Thandiwe, u-Sipho Nkosi).
 */
const CONVERSATION = {
  conversation_id: 'wa:27823456789:2026-11-20',
  tenant: 'ethekwini_water',
  vertical: 'municipal',
  language: 'zu',
  turns: [
    { role: 'user', content: 'Sawubona, nginguThandiwe. Amanzi awekho kusukela izolo eMlazi.', timestamp: '2026-11-20T08:00:00+02:00' },
    { role: 'assistant', content: 'Ngiyaxolisa Thandiwe. Ngicela inombolo ye-akhawunti.', timestamp: '2026-11-20T08:00:05+02:00' },
    { role: 'user', content: 'I-akhawunti ingekamakhelwane wami, uSipho Nkosi, inombolo ngu-5512034.', timestamp: '2026-11-20T08:01:00+02:00' },
    { role: 'assistant', content: 'Ngiyabonga. Ithimba lizofika kusasa ngo-10 ekuseni.', timestamp: '2026-11-20T08:01:05+02:00' },
  ],
};

const NAMES = ['Thandiwe', 'Sipho', 'Nkosi'];

const sessions: TmuxSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.kill();
});

describe.skipIf(!TmuxSession.available())('isiZulu names through `parley calibrate import` and the rating screen', () => {
  it('masks "nginguThandiwe" and "uSipho Nkosi" in the set file and on the screen, keeping the prefixes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-masked-names-'));
    const log = join(dir, 'inbox.jsonl');
    writeFileSync(log, `${JSON.stringify(CONVERSATION)}\n`);
    copyFileSync(join(EXAMPLE_CALIBRATION, 'rubric.md'), join(dir, 'rubric.md'));

    const imported = spawnSync(process.execPath, [PARLEY, 'calibrate', 'import', log, '--dir', dir], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain('1 added, 0 skipped, 0 refused');
    const set = readFileSync(join(dir, 'human_labelled.yaml'), 'utf8');
    expect(set).toContain('Sawubona, ngingu<name>.');
    expect(set).toContain('Ngiyaxolisa <name>.');
    expect(set).toContain('uSipho'.replace('Sipho', '<name>'));
    for (const name of NAMES) expect(set).not.toContain(name);
    expect(set).toContain('eMlazi'); // a place stays

    const session = TmuxSession.start(`parley-masked-names-${process.pid}`, [process.execPath, PARLEY, 'tui', 'rate', '--reviewer', 'rev-zu', '--dir', dir], {
      cwd: dir,
      columns: 100,
      rows: 30,
    });
    sessions.push(session);
    const screen = await session.waitFor((text) => text.includes('ngingu<name>') && text.includes('u<name>, inombolo'), 30_000);
    expect(screen).toContain('Ngiyaxolisa <name>.');
    for (const name of NAMES) expect(screen).not.toContain(name);
    // Colour is on: the screen is drawn with escape sequences.
    expect(session.styledScreen()).toMatch(/\u001b\[[0-9;]*m/);
  }, 60_000);
});
