import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot as root, workspacePackages } from '../workspace-packages.js';

const env = { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false', NX_TUI: 'false' };
const nx = (...args: string[]) => execFileSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), ...args], { cwd: root, env, encoding: 'utf8' });

/** Every workspace package (apps/*, libs/*, tools/* with a package.json), by its package name. */
const workspacePackageNames = () => workspacePackages().map(({ manifest }) => manifest.name).sort();

// Each nx command builds the project graph in a fresh process (no daemon): seconds each, more on a busy machine.
describe('Nx targets inferred by scripts/nx/parley-targets.mjs', { timeout: 180_000 }, () => {
  it('gives every app, library and tool a build, typecheck, test and lint target', () => {
    const packages = workspacePackageNames();
    expect(packages.length).toBeGreaterThan(15);
    for (const target of ['build', 'typecheck', 'test', 'lint']) {
      const projects = nx('show', 'projects', '--with-target', target).trim().split('\n').sort();
      expect(projects, target).toEqual(packages);
    }
  });

  it('answers a second typecheck of an unchanged project from the cache', () => {
    nx('run', '@parley/core:typecheck', '--output-style=static');
    const second = nx('run', '@parley/core:typecheck', '--output-style=static');
    expect(second).toMatch(/existing outputs match the cache|read the output from the cache/);
  });

  it('lists a library and everything that depends on it as affected by a change to it', () => {
    const affected = nx('show', 'projects', '--affected', '--files', 'libs/gate/src/index.ts').trim().split('\n');
    expect(affected).toEqual(expect.arrayContaining(['@parley/gate', '@parley/reports', '@parley/runner', 'parley-eval']));
    expect(affected).not.toContain('@parley/core');
    expect(affected).not.toContain('@parley/fake-llm');
  });
});
