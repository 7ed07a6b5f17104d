import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { programPlan, quoteArgumentForCmd, shellCommandPlan } from './platform-spawn.js';

const WINDOWS_ENV = { ComSpec: 'C:\\Windows\\system32\\cmd.exe' };

describe('shellCommandPlan', () => {
  it('runs a command line with /bin/sh -c on Linux and macOS', () => {
    for (const platform of ['linux', 'darwin']) {
      expect(shellCommandPlan('psql -c "select 1" && echo ok', platform, {})).toEqual({ file: '/bin/sh', args: ['-c', 'psql -c "select 1" && echo ok'] });
    }
  });

  it('runs it with the ComSpec interpreter on Windows, the line passed as written', () => {
    expect(shellCommandPlan('scripts\\setup.cmd && echo ok', 'win32', WINDOWS_ENV)).toEqual({
      file: 'C:\\Windows\\system32\\cmd.exe',
      args: ['/d', '/s', '/c', '"scripts\\setup.cmd && echo ok"'],
      windowsVerbatimArguments: true,
    });
    expect(shellCommandPlan('echo x', 'win32', {}).file).toBe('cmd.exe');
  });

  it('really runs through the shell here', () => {
    const plan = shellCommandPlan('echo "$((6 * 7))" | tr 4 X');
    expect(spawnSync(plan.file, plan.args, { encoding: 'utf8' }).stdout).toBe('X2\n');
  });
});

describe('programPlan', () => {
  it('starts the program itself on Linux and macOS', () => {
    expect(programPlan(['npx', 'my-agent', '--port', '8080'], 'linux', {})).toEqual({ file: 'npx', args: ['my-agent', '--port', '8080'] });
    expect(programPlan(['node', 'agents/agent.mjs'], 'darwin', {})).toEqual({ file: 'node', args: ['agents/agent.mjs'] });
  });

  it('starts a Windows .exe itself', () => {
    expect(programPlan(['C:\\Program Files\\nodejs\\node.exe', 'agent.mjs'], 'win32', WINDOWS_ENV)).toEqual({
      file: 'C:\\Program Files\\nodejs\\node.exe',
      args: ['agent.mjs'],
    });
  });

  it('starts npx (a .cmd shim) and any other name through cmd.exe on Windows, arguments quoted', () => {
    expect(programPlan(['npx', 'tsx', 'agents/agent.ts'], 'win32', WINDOWS_ENV)).toEqual({
      file: 'C:\\Windows\\system32\\cmd.exe',
      args: ['/d', '/s', '/c', '"npx ^"tsx^" ^"agents/agent.ts^""'],
      windowsVerbatimArguments: true,
    });
  });

  it('refuses an empty command', () => {
    expect(() => programPlan([], 'linux', {})).toThrow('empty command');
  });
});

describe('quoteArgumentForCmd', () => {
  it('keeps cmd.exe metacharacters literal and quotes as the C runtime reads them back', () => {
    expect(quoteArgumentForCmd('a b')).toBe('^"a^ b^"');
    expect(quoteArgumentForCmd('fish & chips')).toBe('^"fish^ ^&^ chips^"');
    expect(quoteArgumentForCmd('100%')).toBe('^"100^%^"');
    expect(quoteArgumentForCmd('say "hi"')).toBe('^"say^ \\^"hi\\^"^"');
    expect(quoteArgumentForCmd('C:\\dir\\')).toBe('^"C:\\dir\\\\^"');
  });
});
