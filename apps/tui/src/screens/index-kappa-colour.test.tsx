import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MIXED_SUITE, tempFolder, THREE_RUNS, writeRuns, type TempFolder } from '../index-view/test-support/agent-index-fixture.js';
import { renderApp } from '../test-support/render-screen.js';

// Ink's colours go through chalk, which finds no colour terminal under a test runner: force one
// before Ink loads, so that what the theme decides (colour, or none under NO_COLOR) shows in frames.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

/** An SGR foreground colour (red 31, green 32, yellow 33, cyan 36, …). */
const FOREGROUND = /\u001B\[3[1-7]m/;

let folder: TempFolder;
beforeEach(() => {
  folder = tempFolder(MIXED_SUITE);
  writeRuns(join(folder.path, '.parley', 'parley.db'), THREE_RUNS);
  const reports = join(folder.path, 'calibration', 'reports');
  mkdirSync(reports, { recursive: true });
  const real = readFileSync(fileURLToPath(new URL('../../../../calibration/reports/2026-11-26.json', import.meta.url)), 'utf8');
  writeFileSync(join(reports, '2026-11-26.json'), real);
});
afterEach(() => folder.remove());

function services() {
  return { cwd: folder.path, suitePath: folder.path, storePath: join(folder.path, '.parley', 'parley.db'), calibrationDir: join(folder.path, 'calibration') };
}

describe.each([
  ['index', { screen: 'index' } as const, 'failing'],
  ['kappa', { screen: 'kappa' } as const, 'FAIL'],
])('%s screen colours', (_name, route, marked) => {
  it('paints statuses in colour when colour is on', () => {
    const frame = renderApp(route, { services: services(), colour: true }).lastFrame() ?? '';
    expect(frame).toMatch(FOREGROUND);
    expect(frame).toMatch(new RegExp(`\\u001B\\[31m[^\\u001B]*${marked}`));
  });

  it('uses no colour at all under NO_COLOR, and the words still say pass or fail', () => {
    const frame = renderApp(route, { services: services(), colour: false }).lastFrame() ?? '';
    expect(frame).not.toMatch(FOREGROUND);
    expect(frame).toContain(marked);
  });
});
