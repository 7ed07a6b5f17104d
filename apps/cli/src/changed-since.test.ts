import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyExample } from './test-support/example-copy.js';
import { parleyIn } from './test-support/gate-suite.js';

interface ReportJson {
  exit_code: number;
  status: string;
  selection?: { total: number; selected: number; changed_since?: { ref: string; changed_files: number; affecting: string[]; smoke: boolean } };
  results: Array<{ scenario_id: string; status: string; gate: string; agent: string; error?: { kind: string } }>;
}

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'Parley Test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Parley Test', GIT_COMMITTER_EMAIL: 'test@example.com' };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' });
}

/** A copy of the municipal example as a git repository with one commit. */
function committedMunicipal(): string {
  const suite = copyExample('municipal');
  git(suite, 'init', '--quiet', '--initial-branch=main');
  writeFileSync(join(suite, '.gitignore'), '.parley/\nout*/\n');
  git(suite, 'add', '.');
  git(suite, 'commit', '--quiet', '-m', 'suite');
  return suite;
}

function report(suite: string, out: string): ReportJson {
  return JSON.parse(readFileSync(join(suite, out, 'report.json'), 'utf8')) as ReportJson;
}

function append(file: string, text: string): void {
  writeFileSync(file, `${readFileSync(file, 'utf8')}${text}`);
}

describe('--changed-since GITREF (the gate matrix)', () => {
  it('runs only the scenarios of the agent whose prompt changed', async () => {
    const suite = committedMunicipal();
    git(suite, 'checkout', '--quiet', '-b', 'feature');
    append(join(suite, 'prompts', 'auth.md'), '\nNever read a one-time PIN back to the user.\n');
    git(suite, 'commit', '--quiet', '-am', 'tighten the auth prompt');

    const run = await parleyIn(suite, ['run', '.', '--changed-since', 'main', '--out', 'out']);
    const result = report(suite, 'out');
    expect(result.results.map((entry) => entry.scenario_id)).toEqual([
      'auth_bypass_attempt_en',
      'auth_gbv_disclosure_en',
      'auth_language_switch_zu',
      'auth_otp_signin_en',
      'auth_register_zu',
      'auth_third_party_number_en',
      'auth_wrong_code_af',
    ]);
    expect(new Set(result.results.map((entry) => entry.agent))).toEqual(new Set(['auth']));
    expect(result.selection).toEqual({ total: 25, selected: 7, changed_since: { ref: 'main', changed_files: 1, affecting: ['prompts/auth.md'], smoke: false } });
    // The prompt is part of every recorded request: replaying it misses, which is why prompt changes run live in CI.
    expect(result.results.every((entry) => entry.error?.kind === 'replay_miss')).toBe(true);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Gate matrix: 7 of 25 scenarios affected by changes since main (prompts/auth.md).');
    expect(readFileSync(join(suite, 'out', 'summary.md'), 'utf8')).toContain('Gate matrix: 7 of 25 scenarios affected by changes since `main` (`prompts/auth.md`).');
  });

  it('counts uncommitted changes too: a scenario file, and an agent definition in parley.yaml', async () => {
    const suite = committedMunicipal();
    const scenario = join(suite, 'scenarios', 'municipal', 'municipal_pothole_af.yaml');
    writeFileSync(scenario, readFileSync(scenario, 'utf8').replace('tags: [', 'tags: [roads, '));
    const own = await parleyIn(suite, ['run', '.', '--changed-since', 'HEAD', '--out', 'out-scenario']);
    expect(own.code).toBe(0);
    expect(report(suite, 'out-scenario').results.map((entry) => [entry.scenario_id, entry.status])).toEqual([['municipal_pothole_af', 'pass']]);
    git(suite, 'checkout', '--quiet', '--', '.');

    const parleyYaml = join(suite, 'parley.yaml');
    writeFileSync(parleyYaml, readFileSync(parleyYaml, 'utf8').replace('    system_prompt: prompts/ticket_status.md\n', '    system_prompt: prompts/ticket_status.md\n    max_tokens: 512\n'));
    await parleyIn(suite, ['run', '.', '--changed-since', 'HEAD', '--out', 'out-agent']);
    const agentRun = report(suite, 'out-agent');
    expect(new Set(agentRun.results.map((entry) => entry.agent))).toEqual(new Set(['ticket_status']));
    expect(agentRun.selection?.changed_since?.affecting).toEqual(['parley.yaml']);

    writeFileSync(parleyYaml, readFileSync(parleyYaml, 'utf8').replace('concurrency: 4', 'concurrency: 3'));
    await parleyIn(suite, ['run', '.', '--changed-since', 'HEAD', '--out', 'out-settings']);
    expect(report(suite, 'out-settings').selection).toMatchObject({ selected: 25 }); // settings concern every scenario
  });

  it('with no change that affects a scenario, runs only the advisory scenarios as a smoke run and says so', async () => {
    const suite = committedMunicipal();
    writeFileSync(join(suite, 'NOTES.md'), 'unrelated change\n');
    const run = await parleyIn(suite, ['run', '.', '--changed-since', 'HEAD', '--out', 'smoke']);
    expect(run.code).toBe(0);
    const smoke = report(suite, 'smoke');
    expect(smoke.results.map((entry) => [entry.scenario_id, entry.gate])).toEqual([['ticket_status_af_raw_status', 'advisory']]);
    expect(smoke.selection?.changed_since).toEqual({ ref: 'HEAD', changed_files: 1, affecting: [], smoke: true });
    expect(run.stdout).toContain('Smoke run: no change since HEAD affects any scenario (1 file changed), so only the 1 advisory scenario of 25 ran; they never fail the run.');
    const summary = readFileSync(join(suite, 'smoke', 'summary.md'), 'utf8');
    expect(summary.split('\n')[0]).toMatch(/^## Parley: PASS — smoke run, no blocking scenarios; 1 advisory scenario ran/);
    expect(summary).toContain('### Blocking scenarios\n\nNone.');
    expect(summary).toContain('### Advisory scenarios (1)');
  });

  it('an advisory scenario that fails never fails a gate-matrix run; blocking and advisory are reported apart', async () => {
    const suite = committedMunicipal();
    const advisory = join(suite, 'scenarios', 'ticket_status', 'ticket_status_af_raw_status.yaml');
    writeFileSync(advisory, readFileSync(advisory, 'utf8').replace('expect:\n', 'expect:\n  - { metric: content_signals, required: ["this text is never said"] }\n'));
    const run = await parleyIn(suite, ['run', '.', '--changed-since', 'HEAD', '--out', 'out']);
    expect(report(suite, 'out').results.map((entry) => [entry.scenario_id, entry.status])).toEqual([['ticket_status_af_raw_status', 'fail']]);
    expect(run.code).toBe(0);
  });

  it('outside a git checkout or with an unknown ref, exits 2 saying so', async () => {
    const plain = copyExample('municipal');
    const noGit = await parleyIn(plain, ['run', '.', '--changed-since', 'main']);
    expect(noGit.code).toBe(2);
    expect(noGit.stderr).toContain('--changed-since needs a git checkout');
    const suite = committedMunicipal();
    const unknown = await parleyIn(suite, ['run', '.', '--changed-since', 'origin/nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--changed-since: "origin/nope" is not a commit, branch or tag of this repository');
  });
});
