import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../test-support/example-copy.js';

/**
 * A team's project with Parley installed locally, as npm lays it out: the built package in
 * node_modules/parley-eval, its bin linked from node_modules/.bin/parley. The person's shell has
 * no `parley` unless PATH names that folder, so the commands Parley prints must say `npx parley`.
 */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-hints-'));
  writeFileSync(join(dir, 'package.json'), '{ "name": "team-project", "version": "1.0.0", "private": true }\n');
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'apps/cli'), join(dir, 'node_modules/parley-eval'));
  symlinkSync('../parley-eval/bin/parley.js', join(dir, 'node_modules/.bin/parley'));
  return dir;
}

/** Runs node_modules/.bin/parley as the shell would (through its #! line), with PATH as given. */
function parley(dir: string, args: string[], path: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(join(dir, 'node_modules/.bin/parley'), args, {
    cwd: dir,
    encoding: 'utf8',
    env: { HOME: process.env.HOME, NO_COLOR: '1', PATH: path.join(delimiter), ...env },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

// Node (for the bin's #! line) and git, and no `parley` of their own: a `parley` elsewhere would
// not be this one, and the answer would still be `npx parley`.
const BASE = [dirname(process.execPath), '/usr/bin', '/bin'];

describe('the commands Parley prints name it as the person can run it', () => {
  let dir = '';
  beforeAll(() => {
    dir = project();
    expect(parley(dir, ['init'], BASE).status).toBe(0);
  });

  it('says npx parley when the parley on PATH is not this one (a local install)', () => {
    expect(parley(dir, ['runs', 'list'], BASE).output).toContain('no runs yet: start one with `npx parley run <suite>`');
    const run = parley(dir, ['run'], BASE);
    expect(run.status).toBe(0);
    expect(run.output).toMatch(/\(in a browser: npx parley show-report \S+\)/);
    // The libraries' hints too, given the same answer (run options, export's run loading).
    expect(parley(dir, ['run', '--resume', 'nosuchrun'], BASE).output).toContain('(see npx parley runs list)');
    expect(parley(dir, ['export', 'nosuchrun', '--to', 'otlp'], BASE).output).toContain('(see `npx parley runs list`)');
  });

  it('says parley when PATH finds this parley (npm run scripts, a global install)', () => {
    const withBin = [join(dir, 'node_modules/.bin'), ...BASE];
    expect(parley(dir, ['runs', 'list', '--suite', 'none'], withBin).output).toContain('(parley runs list shows');
    const run = parley(dir, ['run'], withBin);
    expect(run.status).toBe(0);
    expect(run.output).toMatch(/\(in a browser: parley show-report \S+\)/);
    expect(run.output).not.toContain('npx parley');
  });

  it('says npx parley under npx, which put node_modules/.bin on PATH for itself only', () => {
    const run = parley(dir, ['run'], [join(dir, 'node_modules/.bin'), ...BASE], { npm_command: 'exec' });
    expect(run.output).toMatch(/\(in a browser: npx parley show-report \S+\)/);
  });

  it('names the record command of a replay miss the same way', () => {
    const miss = project();
    expect(parley(miss, ['init'], BASE).status).toBe(0);
    const scenario = join(miss, 'scenarios/first_conversation.yaml');
    writeFileSync(scenario, readFileSync(scenario, 'utf8').replace('Hello! What can you help me with?', 'Hi, what do you do?'));
    const run = parley(miss, ['run'], BASE);
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('npx parley run . --mode record --scenario first_conversation');
  });
});
