import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Route } from '../routes.js';
import { renderApp, waitForFrame } from '../test-support/render-screen.js';
import { overflow } from '../triage/test-support/triage-store.js';
import { startRerunFixture } from '../triage/rerun/test-support/rerun-suite.js';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The frame's lines joined as one text (a wrapped message reads whole again). */
function unwrapped(frame: string): string {
  return frame
    .split('\n')
    .map((line) => line.trim())
    .join(' ');
}

/** A folder whose `.parley/parley.db` is not a SQLite database (a file damaged on disk). */
function corruptStore(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-long-error-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, '.parley'));
  const storePath = join(dir, '.parley', 'parley.db');
  writeFileSync(storePath, 'not a database, a damaged copy of one\n'.repeat(200));
  return storePath;
}

describe('long error texts wrap within 80 columns instead of being cut', () => {
  const routes: Array<[string, Route]> = [
    ['runs', { screen: 'runs' }],
    ['run', { screen: 'run', runId: '20261126-120000-abcdef' }],
    ['scenario', { screen: 'scenario', runId: '20261126-120000-abcdef', scenarioId: 'spa_booking_codeswitch' }],
  ];
  it.each(routes)('the %s screen says in full why the run history cannot be read (a corrupt .parley/parley.db)', async (_name, route) => {
    const storePath = corruptStore();
    const expected = `Cannot read the run history: cannot open ${storePath} as a Parley database: file is not a database`;
    expect(expected.length).toBeGreaterThan(80);
    const rendered = renderApp(route, { services: { storePath } });
    const frame = await waitForFrame(rendered, (text) => text.includes('Cannot read the run history'));
    expect(unwrapped(frame)).toContain(expected);
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
    rendered.unmount();
  });

  it('the re-run screen says in full why the suite of the run cannot be read (file:line:column included)', async () => {
    const fixture = await startRerunFixture();
    cleanups.push(() => fixture.server.close());
    const suiteFile = join(fixture.dir, 'parley.yaml');
    writeFileSync(suiteFile, 'suite: rerun\nagents: [unclosed\n');
    const storePath = join(fixture.dir, '.parley', 'parley.db');
    const services = { cwd: fixture.dir, env: fixture.env, suitePath: fixture.dir, storePath };
    const rendered = renderApp({ screen: 'rerun', runId: fixture.firstRunId, scenarioId: 's1' }, { services });
    const frame = await waitForFrame(rendered, (text) => text.includes('Cannot re-run s1'));
    const text = unwrapped(frame);
    expect(text).toContain(`Cannot re-run s1: cannot read the suite of run ${fixture.firstRunId}:`);
    expect(text).toMatch(/parley\.yaml:\d+:\d+/);
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
    rendered.unmount();
  });
});
