import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { main } from '../main.js';
import { captureOutput } from '../test-support/capture-output.js';

async function parley(argv: string[]) {
  const output = captureOutput();
  const cwd = mkdtempSync(join(tmpdir(), 'parley-tui-cli-'));
  const code = await main(argv, { cwd, env: {}, output, clock: manualClock(), random: seededRandom(1) });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

describe('parley tui', () => {
  it.each([['tui'], ['tui', 'rate', '--reviewer', 'rev-a'], ['tui', 'kappa'], ['tui', 'run', '.']])(
    '`parley %s` off a terminal is a usage error (exit 2) pointing at the headless commands',
    async (...argv) => {
      const result = await parley(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('parley tui needs an interactive terminal');
      expect(result.stderr).toContain('parley run');
    },
  );

  it('`parley tui run` checks the run flags before anything opens: bad flags exit 2 with the same message as `parley run`', async () => {
    const tui = await parley(['tui', 'run', '.', '--concurrency', '0']);
    const run = await parley(['run', '.', '--concurrency', '0']);
    expect(tui.code).toBe(2);
    expect(run.code).toBe(2);
    expect(tui.stderr).toContain('--concurrency must be a positive integer, got "0"');
    expect(run.stderr).toContain('--concurrency must be a positive integer, got "0"');
  });

  it('lists its screens in --help', async () => {
    const output = captureOutput();
    const code = await main(['tui', '--help'], { cwd: tmpdir(), env: {}, output, clock: manualClock(), random: seededRandom(1) });
    expect(code).toBe(0);
    for (const screen of ['rate', 'kappa', 'run']) expect(output.stdout()).toMatch(new RegExp(`^\\s+${screen}\\b`, 'm'));
  });
});
