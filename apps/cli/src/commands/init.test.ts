import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { SCAFFOLD_AGENT_KINDS, type ScaffoldAgentKind } from '@parley/config';
import { systemClock, systemRandom } from '@parley/core';
import { captureOutput } from '../test-support/capture-output.js';
import { REPO_ROOT } from '../test-support/example-copy.js';
import { parleyAsync } from '../test-support/parley-process.js';
import { initCommand, INIT_AGENT_KINDS } from './init.js';
import { main } from '../main.js';

async function parley(argv: string[], cwd: string) {
  const output = captureOutput();
  const code = await main(argv, { cwd, env: {}, output });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

function emptyProject(): string {
  return mkdtempSync(join(tmpdir(), 'parley-init-'));
}

/** Answers every model call with one friendly line: the scaffold's expectations hold for it. */
const FAKE_SCRIPT = {
  rules: [{ name: 'any', reply: { content: 'Hello! I can tell you about our opening hours and prices. What would you like to know?' } }],
};

describe('parley init', () => {
  it('offers every kind @parley/config can scaffold, in its order', () => {
    expect([...INIT_AGENT_KINDS]).toEqual([...SCAFFOLD_AGENT_KINDS]);
  });


  it('refuses to write .gitignore through a dangling link leading out of its folder (exit 2), creating nothing out there', async () => {
    const project = emptyProject();
    const outside = join(emptyProject(), 'elsewhere', '.gitignore');
    symlinkSync(outside, join(project, '.gitignore'));
    const init = await parley(['init', '--yes'], project);
    expect(init.code).toBe(2);
    expect(init.stderr).toMatch(/\.gitignore: is a symbolic link to nothing \(dangling\)/);
    expect(init.stderr).not.toContain('this is a bug');
    expect(existsSync(outside)).toBe(false);
    expect(lstatSync(join(project, '.gitignore')).isSymbolicLink()).toBe(true);
  });

  it('adds its lines through a .gitignore linked to a regular file in its folder', async () => {
    const project = emptyProject();
    writeFileSync(join(project, 'shared-ignore'), 'dist/\n');
    symlinkSync('shared-ignore', join(project, '.gitignore'));
    expect((await parley(['init', '--yes'], project)).code).toBe(0);
    expect(readFileSync(join(project, 'shared-ignore'), 'utf8')).toMatch(/^dist\/\n.*\.parley\//s);
    expect(lstatSync(join(project, '.gitignore')).isSymbolicLink()).toBe(true);
  });

  it('scaffolds a suite that validates, for every agent kind', async () => {
    for (const kind of SCAFFOLD_AGENT_KINDS) {
      const project = emptyProject();
      const init = await parley(['init', '--agent-kind', kind], project);
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).toContain(`a suite with one ${kind} agent`);
      const validate = await parley(['validate', '.'], project);
      expect(validate.code, `${kind}: ${validate.stderr}`).toBe(0);
      const suite = parse(readFileSync(join(project, 'parley.yaml'), 'utf8')) as { agents: Record<string, { kind: string }> };
      expect(suite.agents.assistant?.kind).toBe(kind);
    }
  });

  it('--yes writes the files, each YAML file with its schema line, and .gitignore ignores .parley/', async () => {
    const project = emptyProject();
    const init = await parley(['init', '--yes'], project);
    expect(init.code).toBe(0);
    for (const file of ['parley.yaml', 'scenarios/first_conversation.yaml', 'metrics/helpfulness.yaml', 'prompts/assistant.md', '.gitignore']) {
      expect(init.stdout).toContain(`wrote  ${file}`);
    }
    // Offline and before parley-eval is installed: the path it will have in node_modules, per file.
    expect(readFileSync(join(project, 'parley.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=node_modules\/parley-eval\/schemas\/suite\.schema\.json\n/);
    expect(readFileSync(join(project, 'scenarios/first_conversation.yaml'), 'utf8')).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/node_modules\/parley-eval\/schemas\/scenario\.schema\.json\n/,
    );
    expect(readFileSync(join(project, 'metrics/helpfulness.yaml'), 'utf8')).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/node_modules\/parley-eval\/schemas\/metric\.schema\.json\n/,
    );
    expect(readFileSync(join(project, '.gitignore'), 'utf8').split('\n')).toContain('.parley/');
  });

  it('points $schema at the node_modules that holds parley-eval, from each file: a sub-folder suite goes up', async () => {
    // This repository is such a project: node_modules/parley-eval is the workspace's apps/cli.
    mkdirSync(join(REPO_ROOT, 'tmp'), { recursive: true });
    const suite = join(mkdtempSync(join(REPO_ROOT, 'tmp', 'init-')), 'suite');
    try {
      expect((await parley(['init', suite, '--yes'], REPO_ROOT)).code).toBe(0);
      const line = readFileSync(join(suite, 'scenarios', 'first_conversation.yaml'), 'utf8').split('\n')[0];
      expect(line).toBe(`# yaml-language-server: $schema=../../../../node_modules/parley-eval/schemas/scenario.schema.json`);
      const suiteLine = readFileSync(join(suite, 'parley.yaml'), 'utf8').split('\n')[0];
      expect(suiteLine).toBe(`# yaml-language-server: $schema=../../../node_modules/parley-eval/schemas/suite.schema.json`);
      expect(existsSync(join(suite, '../../../node_modules/parley-eval/schemas/suite.schema.json'))).toBe(true);
    } finally {
      rmSync(join(suite, '..'), { recursive: true, force: true });
    }
  });

  it('never overwrites: a second init of the same kind keeps every file and says so', async () => {
    const project = emptyProject();
    writeFileSync(join(project, '.gitignore'), 'node_modules\n');
    await parley(['init', '--agent-kind', 'module'], project);
    expect(readFileSync(join(project, '.gitignore'), 'utf8')).toBe('node_modules\n.parley/\n');
    writeFileSync(join(project, 'scenarios', 'first_conversation.yaml'), '# mine\n');
    const again = await parley(['init', '--agent-kind', 'module', '--github'], project);
    expect(again.code).toBe(0);
    expect(readFileSync(join(project, 'scenarios', 'first_conversation.yaml'), 'utf8')).toBe('# mine\n');
    expect(again.stdout).toContain('kept   parley.yaml (exists; not overwritten)');
    expect(again.stdout).toContain('kept   scenarios/first_conversation.yaml (exists; not overwritten)');
    expect(again.stdout).toContain('kept   recordings/first_conversation.jsonl (exists; not re-recorded)');
    expect(again.stdout).toContain('kept   .gitignore (already ignores .parley/)');
    expect(again.stdout).toContain('wrote  .github/workflows/parley.yml');
  });

  it('the built command also takes a second init of the same kind, and names the kind it refuses', async () => {
    // The shipped bundle, not the sources: there a dynamic import('yaml') has no named exports.
    const project = emptyProject();
    expect((await parleyAsync(['init', '--yes'], { cwd: project })).status).toBe(0);
    const again = await parleyAsync(['init', '--yes'], { cwd: project });
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('kept   parley.yaml (exists; not overwritten)');
    const refused = await parleyAsync(['init', '--agent-kind', 'http'], { cwd: project });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('exists with an openai agent, not http');
  });

  it('refuses another kind over an existing suite without --force, writing nothing; --force replaces the scaffold', async () => {
    const project = emptyProject();
    expect((await parley(['init', '--yes'], project)).code).toBe(0);
    const before = readFileSync(join(project, 'parley.yaml'), 'utf8');
    const refused = await parley(['init', '--agent-kind', 'module'], project);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('parley init: parley.yaml exists with an openai agent, not module; nothing was written.');
    expect(refused.stderr).toContain('--force');
    // Points at what the project has: the schema (docs/ is in Parley's repository, not the package).
    expect(refused.stderr).toContain('parley schema suite');
    expect(refused.stderr).not.toContain('docs/');
    expect(existsSync(join(project, 'agents'))).toBe(false);
    expect(readFileSync(join(project, 'parley.yaml'), 'utf8')).toBe(before);

    const forced = await parley(['init', '--agent-kind', 'module', '--force'], project);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('wrote  parley.yaml');
    expect((parse(readFileSync(join(project, 'parley.yaml'), 'utf8')) as { agents: { assistant: { kind: string } } }).agents.assistant.kind).toBe('module');
    expect((await parley(['run', '.', '--out', 'reports'], project)).code).toBe(0);
  });

  it('is green at once, with no key and no network: a starter recording that says what it is', async () => {
    for (const kind of SCAFFOLD_AGENT_KINDS) {
      const project = emptyProject();
      const init = await parley(['init', '--agent-kind', kind], project);
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).toMatch(/wrote {2}recordings\/first_conversation\.jsonl {2}\(starter recording: /);
      const run = await parleyAsync(['run', '--out', 'reports'], { cwd: project, env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' } });
      expect(run.status, `${kind}: ${run.stderr}${run.stdout}`).toBe(0);
      expect(run.stdout).toContain('replay');
      const recording = readFileSync(join(project, 'recordings', 'first_conversation.jsonl'), 'utf8');
      if (['openai', 'openai-responses', 'anthropic', 'openai-compatible'].includes(kind)) {
        expect(recording).toContain('"model":"parley-init-placeholder"');
        expect(recording).toContain('placeholder reply recorded by parley init');
      } else {
        expect(recording).toContain('I can answer questions about our services');
      }
    }
  });

  it('prints next steps without shell syntax (no comment after a command), and git add names only what exists', async () => {
    for (const kind of SCAFFOLD_AGENT_KINDS) {
      const project = emptyProject();
      const init = await parley(['init', 'evals', '--agent-kind', kind], project);
      const steps = init.stdout.slice(init.stdout.indexOf('next'));
      expect(steps).not.toMatch(/ &(\s|$)|^\s*export |\s[A-Z_]+=\S+ npx/m);
      // cmd has no comment after a command: a `# note` there would be the command's arguments.
      const commands = steps.split('\n').filter((line) => /^\s*(npx|node|git) /.test(line));
      expect(commands.length, kind).toBeGreaterThanOrEqual(4);
      for (const line of commands) expect(line, kind).not.toContain('#');
      const add = /^ {4}git add (.*)$/m.exec(steps)?.[1]?.split(' ') ?? [];
      expect(add.length).toBeGreaterThan(3);
      for (const path of add) expect(existsSync(join(project, path)), `${kind}: ${path}`).toBe(true);
      expect(add.some((path) => path.endsWith('prompts'))).toBe(['openai', 'openai-responses', 'anthropic', 'openai-compatible'].includes(kind));
      expect(add.some((path) => path.endsWith('agents'))).toBe(['http', 'command', 'module'].includes(kind));
    }
  });

  it('--github writes plain pinned steps at the git root, with working-directory when the project is below it', async () => {
    const repository = emptyProject();
    mkdirSync(join(repository, '.git'));
    const project = join(repository, 'packages', 'assistant');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'package.json'), '{ "name": "assistant" }\n');
    writeFileSync(join(project, 'package-lock.json'), '{}\n');
    writeFileSync(join(project, '.nvmrc'), '22\n');
    expect((await parley(['init', 'evals', '--yes', '--github'], project)).code).toBe(0);
    expect(existsSync(join(project, '.github'))).toBe(false);
    const text = readFileSync(join(repository, '.github', 'workflows', 'parley.yml'), 'utf8');
    const workflow = parse(text) as {
      jobs: { parley: { defaults: { run: { 'working-directory': string } }; steps: Array<{ id?: string; if?: string; env?: Record<string, string>; uses?: string; run?: string; with?: Record<string, unknown> }> } };
    };
    const job = workflow.jobs.parley;
    expect(job.defaults.run['working-directory']).toBe('packages/assistant');
    expect(job.steps.map((step) => step.run?.trim() ?? step.uses?.split('@')[0])).toEqual([
      'actions/checkout',
      'actions/setup-node',
      'npm ci',
      'actions/cache',
      'npx parley run evals --reporter github --out reports/parley',
      'actions/upload-artifact',
      'echo "Parley report: [download the artifact]($REPORT_URL), unzip it and open report.html (or unzip it in your project and run npx parley show-report . in its folder)" >> "$GITHUB_STEP_SUMMARY"',
    ]);
    // The uploaded report folder (with report.html) is linked from the job summary.
    expect(job.steps[5]).toMatchObject({ id: 'upload' });
    expect(job.steps[6]).toMatchObject({ if: "always() && steps.upload.outputs.artifact-url != ''", env: { REPORT_URL: '${{ steps.upload.outputs.artifact-url }}' } });
    expect(job.steps[1]?.with).toEqual({ 'node-version-file': 'packages/assistant/.nvmrc', cache: 'npm', 'cache-dependency-path': 'packages/assistant/package-lock.json' });
    expect(job.steps[3]?.with?.['path']).toBe('packages/assistant/.parley/parley.db');
    expect(job.steps[5]?.with?.['path']).toBe('packages/assistant/reports/parley');
    for (const line of text.split('\n').filter((entry) => entry.includes('uses: '))) expect(line).toMatch(/uses: actions\/[a-z-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    const lint = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'lint-workflows.mjs'), join(repository, '.github', 'workflows', 'parley.yml')], { encoding: 'utf8' });
    expect(lint.status, lint.stdout).toBe(0);
    // .parley/ is made where parley runs (the project): its .gitignore ignores it at any depth.
    expect(readFileSync(join(project, '.gitignore'), 'utf8').split('\n')).toContain('.parley/');
  });

  it("--github triggers on pushes to the repository's current branch: master where git init made that one", async () => {
    const repository = emptyProject();
    const git = spawnSync('git', ['init', '-q', '-b', 'master', repository], { encoding: 'utf8' });
    expect(git.status, git.stderr).toBe(0);
    writeFileSync(join(repository, 'package.json'), '{ "name": "assistant" }\n');
    expect((await parley(['init', '--yes', '--github'], repository)).code).toBe(0);
    const workflow = parse(readFileSync(join(repository, '.github', 'workflows', 'parley.yml'), 'utf8')) as { on: { push: { branches: string[] } } };
    expect(workflow.on.push.branches).toEqual(['master']);
  });

  it("the commands in a sub-folder suite's files name its path from the project root, as the printed next steps do", async () => {
    const project = emptyProject();
    writeFileSync(join(project, 'package.json'), '{ "name": "assistant" }\n');
    const printed = await parley(['init', 'evals/support', '--agent-kind', 'http'], project);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('    npx parley run evals/support --mode record');
    const suite = readFileSync(join(project, 'evals/support/parley.yaml'), 'utf8');
    expect(suite).toMatch(/^# {3}npx parley run evals\/support --mode record {3}talks to the agent/m);
    expect(suite).toMatch(/^# {3}npx parley validate evals\/support {3,}checks every file/m);
    expect(suite).not.toContain('parley run . ');
    const agent = readFileSync(join(project, 'evals/support/agents/http-agent.mjs'), 'utf8');
    expect(agent).toMatch(/^\/\/ {3}node evals\/support\/agents\/http-agent\.mjs +# in one terminal/m);
    expect(agent).toMatch(/^\/\/ {3}npx parley run evals\/support --mode record +# in another/m);
    // The suite's comment command works as pasted at the project root.
    const validated = await parley(['validate', 'evals/support'], project);
    expect(validated.code, validated.stderr).toBe(0);
  });

  it('asks for the agent kind when there is someone to ask, until the answer is one', async () => {
    const project = emptyProject();
    const output = captureOutput();
    const answers = ['8', 'grpc', '6'];
    const questions: string[] = [];
    const code = await initCommand('.', {}, { cwd: project, env: {}, output, clock: systemClock, random: systemRandom() }, async (question) => {
      questions.push(question);
      return answers.shift() ?? '';
    });
    expect(code).toBe(0);
    expect(questions).toHaveLength(3);
    expect(questions[0]).toContain('  6. command ');
    expect(questions[0]).toContain('  2. openai-responses ');
    for (const line of questions[0]!.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(output.stderr()).toContain('"8" is not one of 1-7');
    expect(output.stderr()).toContain('"grpc" is not one of 1-7');
    expect(output.stdout()).toContain('a suite with one command agent');
  });

  it('refuses an unknown --agent-kind with exit 2', async () => {
    const result = await parley(['init', '--agent-kind', 'grpc'], emptyProject());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Allowed choices are openai, openai-responses, anthropic, openai-compatible, http, command, module');
  });
});

describe('a scaffolded suite runs live against its agent', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await startFakeLlm({ script: FAKE_SCRIPT });
  });
  afterAll(async () => {
    await fake.close();
  });

  async function scaffoldAndRun(kind: ScaffoldAgentKind, env: NodeJS.ProcessEnv): Promise<{ project: string; status: number | null; stdout: string; stderr: string }> {
    const project = emptyProject();
    expect((await parley(['init', '--agent-kind', kind], project)).code).toBe(0);
    const run = await parleyAsync(['run', '.', '--mode', 'record', '--out', 'reports'], { cwd: project, env });
    return { project, ...run };
  }

  it.each([
    ['openai', { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: '' }],
    ['openai-responses', { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: '' }],
    ['anthropic', { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: '' }],
    ['openai-compatible', { OPENAI_BASE_URL: '' }],
  ] as const)('%s, against tools/fake-llm', async (kind, keys) => {
    const env = Object.fromEntries(
      Object.entries(keys).map(([name, value]) => [name, value === '' ? (name.startsWith('ANTHROPIC') ? fake.anthropicBaseUrl : fake.openaiBaseUrl) : value]),
    );
    fake.resetLog();
    const run = await scaffoldAndRun(kind, env);
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(fake.requests.length).toBeGreaterThanOrEqual(2);
    expect(fake.requests.every((request) => (request.api === 'anthropic') === (kind === 'anthropic'))).toBe(true);
    const report = JSON.parse(readFileSync(join(run.project, 'reports', 'report.json'), 'utf8')) as { status: string; results: Array<{ status: string }> };
    expect(report.results.map((result) => result.status)).toEqual(['pass']);
    // Recorded: the next run replays without the model.
    const replay = await parleyAsync(['run', '.', '--out', 'replayed'], { cwd: run.project });
    expect(replay.status, replay.stderr).toBe(0);
    expect(replay.stdout).toContain('replay');
  });

  it.each(['command', 'module'] as const)('%s: the scaffolded agent answers', async (kind) => {
    const run = await scaffoldAndRun(kind, {});
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const report = readFileSync(join(run.project, 'reports', 'report.json'), 'utf8');
    expect(report).toContain('I can answer questions about our services');
  });

  it('http: the scaffolded server answers at AGENT_URL', async () => {
    const project = emptyProject();
    expect((await parley(['init', '--agent-kind', 'http'], project)).code).toBe(0);
    const server = spawn(process.execPath, [join(project, 'agents', 'http-agent.mjs')], { cwd: project, env: { PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        server.on('error', reject);
        server.on('exit', (code) => reject(new Error(`http agent exited with ${code}`)));
        createInterface({ input: server.stdout }).once('line', (line) => resolve(/http:\/\/\S+/.exec(line)?.[0] ?? line));
      });
      const run = await parleyAsync(['run', '.', '--mode', 'record', '--out', 'reports'], { cwd: project, env: { AGENT_URL: url } });
      expect(run.status, run.stderr + run.stdout).toBe(0);
      expect(readFileSync(join(project, 'reports', 'report.json'), 'utf8')).toContain('You are welcome. Goodbye!');
    } finally {
      server.kill('SIGTERM');
    }
  });

  it('an unset ${AGENT_URL} without a default: record exits 2 at its line, a replay does not need it; validate warns for a recorded suite and refuses one that would run live', async () => {
    const project = emptyProject();
    expect((await parley(['init', '--agent-kind', 'http'], project)).code).toBe(0);
    const file = join(project, 'parley.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('${AGENT_URL:-http://127.0.0.1:8787}', '${AGENT_URL}'));
    // init's recordings make the suite replay by default: validate says what the variable is still needed for, exit 0, also under --strict.
    const recorded = await parley(['validate', '.'], project);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stderr).toMatch(/parley\.yaml:\d+:10: .*\$\{AGENT_URL\} is not set in the environment.*\(needed to record or run live; a replay does not call the agent\)/);
    expect(recorded.stdout).toContain('1 warning');
    expect((await parley(['validate', '.', '--strict'], project)).code).toBe(0);
    const record = await parleyAsync(['run', '.', '--mode', 'record', '--out', 'reports'], { cwd: project });
    expect(record.status).toBe(2);
    expect(record.stderr).toContain('${AGENT_URL} is not set in the environment');
    expect((await parleyAsync(['run', '.', '--out', 'replayed'], { cwd: project })).status).toBe(0);
    // Without recordings a run would be live: the unset variable is an error.
    rmSync(join(project, 'recordings'), { recursive: true });
    const live = await parley(['validate', '.'], project);
    expect(live.code).toBe(2);
    expect(live.stderr).toMatch(/parley\.yaml:\d+:10: \$\{AGENT_URL\} is not set in the environment/);
    expect(live.stderr).not.toContain('a replay does not call');
    const withUrl = await main(['validate', '.'], { cwd: project, env: { AGENT_URL: 'http://127.0.0.1:8787' }, output: captureOutput() });
    expect(withUrl).toBe(0);
  });
});
