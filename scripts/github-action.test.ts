import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = join(REPO_ROOT, 'scripts', 'github-action.sh');

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}

/** A project with parley-eval "installed" (node_modules/.bin/parley is this checkout's bin) and the booking example. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-action-'));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'apps', 'cli', 'bin', 'parley.js'), join(dir, 'node_modules', '.bin', 'parley'));
  cpSync(join(REPO_ROOT, 'examples', 'booking'), join(dir, 'booking'), { recursive: true });
  return dir;
}

/** Runs one subcommand of the action's script as a step would, with a fake GITHUB_* environment. */
function step(dir: string, subcommand: string, inputs: Record<string, string> = {}) {
  const github = mkdtempSync(join(tmpdir(), 'parley-action-github-'));
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: '1',
    GITHUB_ACTION_PATH: REPO_ROOT,
    GITHUB_OUTPUT: join(github, 'output'),
    GITHUB_STEP_SUMMARY: join(github, 'summary.md'),
    ...inputs,
  };
  writeFileSync(env.GITHUB_OUTPUT, '');
  writeFileSync(env.GITHUB_STEP_SUMMARY, '');
  const result = spawnSync('bash', [SCRIPT, subcommand], { cwd: dir, env, encoding: 'utf8' });
  const outputs = Object.fromEntries(
    readFileSync(env.GITHUB_OUTPUT, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, outputs, summary: readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8') };
}

describe('the GitHub Action', () => {
  const action = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
    runs: { using: string; steps: Step[] };
  };

  it('is a composite action whose shell steps call the script with subcommands it has, and inputs it declares', () => {
    expect(action.runs.using).toBe('composite');
    const script = readFileSync(SCRIPT, 'utf8');
    const runs = action.runs.steps.filter((candidate) => candidate.run !== undefined);
    expect(runs.length).toBeGreaterThanOrEqual(3);
    for (const candidate of runs) expect(candidate.run).toContain('"$GITHUB_ACTION_PATH/scripts/github-action.sh"');
    for (const subcommand of ['install', 'run', 'merge', 'gate']) expect(script).toMatch(new RegExp(`^${subcommand}\\(\\) \\{`, 'm'));
    const text = JSON.stringify(action.runs.steps);
    for (const used of text.matchAll(/inputs\.([a-z-]+)/g)) expect(Object.keys(action.inputs)).toContain(used[1]);
    expect(action.inputs['node-version']?.default).toBe('22');
    const uses = action.runs.steps.flatMap((candidate) => (candidate.uses ? [candidate.uses] : []));
    expect(uses).toEqual(['actions/setup-node@v4', 'actions/cache@v4', 'actions/download-artifact@v4', 'actions/upload-artifact@v4']);
    const cache = action.runs.steps.find((candidate) => candidate.uses === 'actions/cache@v4');
    expect(cache?.with?.path).toBe('${{ inputs.working-directory }}/.parley/parley.db');
  });

  it('runs two shards, merges their reports and gates: outputs, artifacts names and the step summary', () => {
    const dir = project();
    const shards = [1, 2].map((index) => step(dir, 'run', { INPUT_SUITE: 'booking', INPUT_MODE: 'replay', INPUT_SHARD: `${index}/2` }));
    for (const [index, shard] of shards.entries()) {
      expect(shard.status, shard.stderr).toBe(0);
      expect(shard.outputs['exit-code']).toBe('0');
      expect(shard.outputs['artifact-name']).toBe(`parley-shard-${index + 1}`);
      expect(existsSync(join(shard.outputs['report-dir']!, 'report.json'))).toBe(true);
      expect(shard.summary).toContain('scenarios');
      // What actions/download-artifact puts in .parley/shards/<artifact name>/.
      cpSync(shard.outputs['report-dir']!, join(dir, '.parley', 'shards', shard.outputs['artifact-name']!), { recursive: true });
    }
    const scenarios = shards.map((shard) => (JSON.parse(readFileSync(join(shard.outputs['report-dir']!, 'report.json'), 'utf8')) as { results: unknown[] }).results.length);
    expect(scenarios[0]! + scenarios[1]!).toBe(8);

    const merged = step(dir, 'merge');
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.outputs).toMatchObject({ 'exit-code': '0', status: 'pass', 'artifact-name': 'parley-report' });
    const report = JSON.parse(readFileSync(join(merged.outputs['report-dir']!, 'report.json'), 'utf8')) as { results: unknown[] };
    expect(report.results).toHaveLength(8);
    expect(merged.summary).toContain('### Blocking scenarios (7)');
    expect(merged.summary).toContain('### Advisory scenarios (1)');

    expect(existsSync(join(merged.outputs['report-dir']!, 'report.html'))).toBe(true);
    // After upload-artifact: the step summary links the artifact and says how to open report.html.
    const link = step(dir, 'link', {
      PARLEY_REPORT_DIR: merged.outputs['report-dir']!,
      PARLEY_ARTIFACT_NAME: 'parley-report',
      PARLEY_ARTIFACT_URL: 'https://github.com/acme/app/actions/runs/1/artifacts/2',
    });
    expect(link.status, link.stderr).toBe(0);
    expect(link.summary).toContain('**HTML report**: the artifact [parley-report](https://github.com/acme/app/actions/runs/1/artifacts/2) holds `report.html`');
    expect(step(dir, 'link', { PARLEY_REPORT_DIR: join(dir, 'nowhere') }).summary).toBe('');

    const gate = step(dir, 'gate', { PARLEY_EXIT_CODE: merged.outputs['exit-code']! });
    expect(gate.status).toBe(0);
  });

  it('passes baseline, budget and extra flags to parley run', () => {
    const dir = project();
    const baseline = step(dir, 'run', { INPUT_SUITE: 'booking', INPUT_ARGS: '--export-baseline booking/baseline.json --scenario spa_*' });
    expect(baseline.outputs['exit-code'], baseline.stderr).toBe('0');
    expect(existsSync(join(dir, 'booking', 'baseline.json'))).toBe(true);
    const gated = step(dir, 'run', { INPUT_SUITE: 'booking', INPUT_BASELINE: 'booking/baseline.json', INPUT_BUDGET: '0.5' });
    expect(gated.outputs['exit-code'], gated.stderr).toBe('0');
    const report = JSON.parse(readFileSync(join(gated.outputs['report-dir']!, 'report.json'), 'utf8')) as { baseline?: unknown; budget?: { limit_usd?: number } };
    expect(report.baseline).toBeDefined();
    expect(report.budget?.limit_usd).toBe(0.5);
  });

  it('a configuration error: exit 2 in the outputs, its message in the step summary, and the gate fails the step', () => {
    const dir = project();
    const run = step(dir, 'run', { INPUT_SUITE: 'no-such-suite' });
    expect(run.status).toBe(0);
    expect(run.outputs).toMatchObject({ 'exit-code': '2', status: 'error' });
    expect(run.outputs['report-dir']).toBeUndefined();
    expect(run.summary).toContain('`parley run` stopped with exit 2 before writing a report');
    expect(run.summary).toContain('no-such-suite');

    const gate = step(dir, 'gate', { PARLEY_EXIT_CODE: '2' });
    expect(gate.status).toBe(2);
    expect(gate.stdout).toContain('::error::parley exited with 2');
    expect(step(dir, 'gate', { PARLEY_EXIT_CODE: '1', INPUT_FAIL: 'false' }).status).toBe(0);
    expect(step(dir, 'gate', {}).status).toBe(2);
  });

  it('refuses a malformed shard and a merge without shard reports', () => {
    const dir = project();
    expect(step(dir, 'run', { INPUT_SUITE: 'booking', INPUT_SHARD: 'first' }).outputs['exit-code']).toBe('2');
    const merge = step(dir, 'merge');
    expect(merge.outputs['exit-code']).toBe('2');
    expect(merge.stdout).toContain('::error::no shard reports in .parley/shards');
  });

  it('installs parley-eval only when the project does not have it, at the version it asks for', () => {
    const calls = mkdtempSync(join(tmpdir(), 'parley-action-npm-'));
    const npm = join(calls, 'npm');
    // Stands in for npm: records its arguments.
    writeFileSync(npm, `#!/usr/bin/env bash\necho "$*" >> "${join(calls, 'log')}"\n`);
    chmodSync(npm, 0o755);
    const log = () => (existsSync(join(calls, 'log')) ? readFileSync(join(calls, 'log'), 'utf8').trim().split('\n') : []);

    expect(step(project(), 'install', { PARLEY_NPM: npm }).status).toBe(0);
    expect(log()).toEqual([]);

    const bare = mkdtempSync(join(tmpdir(), 'parley-action-bare-'));
    const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'apps', 'cli', 'package.json'), 'utf8')) as { version: string }).version;
    expect(step(bare, 'install', { PARLEY_NPM: npm }).status).toBe(0);
    expect(step(bare, 'install', { PARLEY_NPM: npm, INPUT_VERSION: '0.0.9' }).status).toBe(0);
    writeFileSync(join(bare, 'package.json'), JSON.stringify({ devDependencies: { 'parley-eval': version } }));
    writeFileSync(join(bare, 'package-lock.json'), '{}');
    expect(step(bare, 'install', { PARLEY_NPM: npm }).status).toBe(0);
    expect(log()).toEqual([
      `install --no-save --no-audit --no-fund parley-eval@${version}`,
      'install --no-save --no-audit --no-fund parley-eval@0.0.9',
      'ci --no-audit --no-fund',
    ]);
    expect(dirname(npm)).toBe(calls);
  });
});
