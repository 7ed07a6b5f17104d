import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeInternalError } from './internal-error.js';
import { copyExample, REPO_ROOT } from '../test-support/example-copy.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
const SUPPORT = join(REPO_ROOT, 'apps/cli/src/test-support');

function parley(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; nodeArgs?: string[] }) {
  return spawnSync(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...options.env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('an unexpected error in the parley binary', () => {
  it('a native module that does not load (ERR_DLOPEN_FAILED) exits 2 with one line and `npm rebuild better-sqlite3`, no stack', () => {
    const suite = copyExample('booking');
    const run = parley(['run', '.', '--out', 'out'], { cwd: suite, nodeArgs: ['--require', join(SUPPORT, 'broken-native-module.cjs')] });
    expect(run.status, run.stderr).toBe(2);
    const lines = run.stderr.split('\n');
    const problem = lines.find((line) => line.startsWith('parley: internal error: '));
    expect(problem, run.stderr).toMatch(/ERR_DLOPEN_FAILED|invalid ELF header/);
    expect(run.stderr).toContain('npm rebuild better-sqlite3');
    expect(run.stderr).toContain('PARLEY_DEBUG=1');
    expect(run.stderr).not.toMatch(/^\s+at /m); // no stack
    expect(run.stderr).not.toContain('dist/bundle'); // no minified source
    expect(run.stderr.trim().split('\n').length).toBeLessThanOrEqual(8); // the run header, the problem, what to do
  });

  it('PARLEY_DEBUG=1 adds the stack', () => {
    const suite = copyExample('booking');
    const debug = parley(['run', '.', '--out', 'out'], { cwd: suite, env: { PARLEY_DEBUG: '1' }, nodeArgs: ['--require', join(SUPPORT, 'broken-native-module.cjs')] });
    expect(debug.status).toBe(2);
    expect(debug.stderr).toMatch(/^parley: internal error: .+/m);
    expect(debug.stderr).toMatch(/^\s+at /m); // the stack
  });

  it('a reader that goes away early (`| head`) ends the command quietly', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'parley-pipe-'));
    const run = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" --help | head -1`], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1' } });
    expect(run.stdout).toMatch(/^Usage: parley/);
    expect(run.stderr).toBe('');
  });
});

describe('describeInternalError', () => {
  it('is one line of problem and one of advice, with the stack only under PARLEY_DEBUG=1', () => {
    const error = Object.assign(new Error('The module was compiled against NODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 127.'), { code: 'ERR_DLOPEN_FAILED' });
    const quiet = describeInternalError(error, {});
    expect(quiet.split('\n')[0]).toBe('parley: internal error: The module was compiled against NODE_MODULE_VERSION 115. This version of Node.js requires (ERR_DLOPEN_FAILED)');
    expect(quiet).toContain('run `npm rebuild better-sqlite3`');
    expect(quiet).not.toContain(error.stack!.split('\n')[1]!);
    expect(describeInternalError(error, { PARLEY_DEBUG: '1' })).toContain(error.stack!.split('\n')[1]!);
  });
});

