import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './test-support/example-copy.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');

/** Runs `parley --help` (it loads the bundle; `--version` does not) with its temporary folder (os.tmpdir()) in a fresh folder; returns that folder. */
function helpWithTmpdir(extraEnv: NodeJS.ProcessEnv = {}): string {
  const folder = mkdtempSync(join(tmpdir(), 'parley-compile-cache-'));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: folder, NO_COLOR: '1', ...extraEnv };
  const result = spawnSync(process.execPath, [BIN, '--help'], { env, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return folder;
}

describe('the compiled-code cache', () => {
  it('keeps the compiled bundle in os.tmpdir()/node-compile-cache, so the next command skips compiling it', () => {
    const folder = helpWithTmpdir();
    const cache = join(folder, 'node-compile-cache');
    expect(existsSync(cache)).toBe(true);
    expect(readdirSync(cache, { recursive: true }).length).toBeGreaterThan(0);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE=1', () => {
    const folder = helpWithTmpdir({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(existsSync(join(folder, 'node-compile-cache'))).toBe(false);
  });
});
