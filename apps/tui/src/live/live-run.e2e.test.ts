import { cpSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '@parley/store';
import { TmuxSession } from '../test-support/tmux-session.js';
import { fakeLlmEnv, startHeldFakeLlm, writeLiveSuite, type HeldFakeLlm } from './test-support/held-fake-llm.js';

/** The built `parley` (the test setup runs `npm run build`). */
const PARLEY = fileURLToPath(new URL('../../../cli/bin/parley.js', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const sessions: TmuxSession[] = [];
let fake: HeldFakeLlm | undefined;
/** Files whose existence lets a test's slow teardown hook end. */
const releases: string[] = [];

function start(cwd: string, name: string, args: string[], env: NodeJS.ProcessEnv = {}): TmuxSession {
  const session = TmuxSession.start(`parley-live-${process.pid}-${name}`, [process.execPath, PARLEY, 'tui', 'run', ...args], { cwd, env });
  sessions.push(session);
  return session;
}

afterEach(async () => {
  for (const file of releases.splice(0)) writeFileSync(file, '');
  for (const session of sessions.splice(0)) session.kill();
  fake?.releaseAll();
  await fake?.close();
  fake = undefined;
});

describe.skipIf(!TmuxSession.available())('parley tui run in a real terminal (tmux)', () => {
  it('runs the booking example, ends on the summary and exits with the run’s code', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'parley-tui-run-'));
    cpSync(join(REPO_ROOT, 'examples/booking'), cwd, { recursive: true });
    const session = start(cwd, 'booking', ['.'], { NO_COLOR: '1' });
    const screen = await session.waitFor((text) => text.includes('exit 0'));
    expect(screen).toContain('PASS · 8 scenarios: 7 pass · 1 fail · exit 0');
    expect(screen).toMatch(/✗ spa_booking_codeswitch\s+fail, advisory/);
    session.keys('q');
    await session.waitFor((text) => text.includes('[exit 0]'));
  });

  it('Ctrl-C stops the run and keeps what finished (exit 130); a second Ctrl-C while stopping quits at once', async () => {
    fake = await startHeldFakeLlm();
    const cwd = writeLiveSuite(['s1', 's2', 's3', 's4']);
    const session = start(cwd, 'interrupt', ['.', '--mode', 'live'], fakeLlmEnv(fake.server));
    fake.release('s1');
    await session.waitFor((text) => text.includes('1/4 done'));
    session.keys('C-c');
    const screen = await session.waitFor((text) => text.includes('exit 130'));
    expect(screen).toMatch(/✓ s1\s+pass/);
    expect(screen).toMatch(/s4\s+not started/);
    session.keys('q');
    const runId = /run (\d{8}-\d{6}-[0-9a-f]{6})/.exec(screen)![1]!;
    // Back on the shell's own screen, the run's id, status and resume command stay (as `parley run` leaves them).
    const shell = await session.waitFor((text) => text.includes('[exit 130]'));
    expect(shell).toContain(`run ${runId} · interrupted (exit 130) · 1 of 4 scenarios`);
    expect(shell).toContain(`finish it with: parley run --resume ${runId}`);
    const store = openStore(join(cwd, '.parley/parley.db'));
    try {
      expect(store.finishedScenarioIds(runId)).toEqual(['s1']);
    } finally {
      store.close();
    }

    // A teardown that does not end keeps the run stopping: the second Ctrl-C does not wait for it.
    const slow = writeLiveSuite(['s1', 's2', 's3']);
    const release = join(slow, 'teardown-may-end');
    releases.push(release);
    writeFileSync(
      join(slow, 'parley.yaml'),
      `suite: live_tui\nagents:\n  booking: { kind: openai, model: gpt-4.1-mini }\nsettings: { concurrency: 2 }\nisolation:\n  teardown: 'until [ -e ${release} ]; do sleep 0.1; done'\n`,
    );
    const stopping = start(slow, 'quit-now', ['.', '--mode', 'live'], fakeLlmEnv(fake.server));
    await stopping.waitFor((text) => text.includes('2 running'));
    stopping.keys('C-c');
    await stopping.waitFor((text) => text.includes('Ctrl-C again quits now'));
    stopping.keys('C-c');
    await stopping.waitFor((text) => text.includes('[exit 130]'));
    expect(existsSync(release)).toBe(false); // it quit while the teardown still waited
  });
});
