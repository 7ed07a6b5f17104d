import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyExample, REPO_ROOT } from './test-support/example-copy.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');

/** A Node.js older than 22.12 on this machine (the machines here have Node 20 as `/usr/bin/node`), if any. */
function olderNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    const [major = 0, minor = 0] = (version.stdout ?? '').trim().split('.').map(Number);
    if (version.status === 0 && (major < 22 || (major === 22 && minor < 12))) return candidate;
  }
  return undefined;
}

const oldNode = olderNode();

describe.skipIf(oldNode === undefined)('parley on a Node.js older than 22.12', () => {
  it('says which Node is needed and exits 2, before the SQLite module can crash', () => {
    const suite = copyExample('booking');
    const run = spawnSync(oldNode!, [BIN, 'runs', 'list'], { cwd: suite, env: { PATH: process.env.PATH, HOME: process.env.HOME }, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^parley: Node\.js 22\.12 or later is needed; this is Node\.js \d+\.\d+\.\d+$/m);
    expect(run.stderr).toContain('install Node.js 22 or 24');
    expect(run.stdout).toBe('');
  });
});


const nodeMajor = Number(process.versions.node.split('.')[0]);

/** Runs the bin with a preload that writes the Node flags and pid of the process that ends the command. */
function runWithFlagsProbe(args: string[], env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'parley-node-flags-'));
  const probe = join(dir, 'probe.cjs');
  const written = join(dir, 'flags.json');
  writeFileSync(probe, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(written)}, JSON.stringify({ execArgv: process.execArgv, pid: process.pid })));\n`);
  const suite = copyExample('booking');
  const child = spawnSync(process.execPath, ['--require', probe, BIN, ...args], {
    cwd: suite,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const flags = JSON.parse(readFileSync(written, 'utf8')) as { execArgv: string[]; pid: number };
  return { child, flags };
}

describe.skipIf(nodeMajor < 24)('parley on Node 24: the young generation of Node 22 for the commands that hold many results', () => {
  it('`parley run` restarts itself in place with --max-semi-space-size=16, keeping its own Node flags and exit code', () => {
    const { child, flags } = runWithFlagsProbe(['run', '.', '--out', 'out']);
    expect(child.status, child.stderr).toBe(0);
    expect(flags.execArgv).toContain('--max-semi-space-size=16');
    expect(flags.execArgv.filter((flag) => flag === '--require')).toHaveLength(1);
    expect(flags.pid).toBe(child.pid); // replaced in place, not a child process
    expect(child.stderr).not.toMatch(/ExperimentalWarning|Warning:/);
  });

  it('leaves other commands, and a size the user chose, alone', () => {
    expect(runWithFlagsProbe(['--version']).flags.execArgv).not.toContain('--max-semi-space-size=16');
    const chosen = runWithFlagsProbe(['run', '.', '--out', 'out'], { NODE_OPTIONS: '--max-semi-space-size=32' });
    expect(chosen.child.status, chosen.child.stderr).toBe(0);
    expect(chosen.flags.execArgv).not.toContain('--max-semi-space-size=16');
  });
});
