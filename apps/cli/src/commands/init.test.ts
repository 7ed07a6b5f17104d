import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { initCommand } from './init.js';
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

  it('never overwrites: a second init keeps every file and says so', async () => {
    const project = emptyProject();
    writeFileSync(join(project, '.gitignore'), 'node_modules\n');
    await parley(['init', '--yes'], project);
    expect(readFileSync(join(project, '.gitignore'), 'utf8')).toBe('node_modules\n.parley/\n');
    writeFileSync(join(project, 'parley.yaml'), '# mine\n');
    const again = await parley(['init', '--agent-kind', 'module', '--github'], project);
    expect(again.code).toBe(0);
    expect(readFileSync(join(project, 'parley.yaml'), 'utf8')).toBe('# mine\n');
    expect(again.stdout).toContain('kept   parley.yaml (exists; not overwritten)');
    expect(again.stdout).toContain('kept   scenarios/first_conversation.yaml (exists; not overwritten)');
    expect(again.stdout).toContain('kept   .gitignore (already ignores .parley/)');
    expect(again.stdout).toContain('wrote  agents/module-agent.mjs');
    expect(again.stdout).toContain('wrote  .github/workflows/parley.yml');
  });

  it('--github writes a workflow at the project root that runs the suite with the Action on Node 22', async () => {
    const project = emptyProject();
    writeFileSync(join(project, 'package.json'), '{ "name": "shop" }\n');
    expect((await parley(['init', 'evals', '--yes', '--github'], project)).code).toBe(0);
    const workflow = parse(readFileSync(join(project, '.github', 'workflows', 'parley.yml'), 'utf8')) as {
      jobs: { parley: { steps: Array<{ uses?: string; with?: Record<string, unknown> }> } };
    };
    const step = workflow.jobs.parley.steps.find((candidate) => candidate.uses?.startsWith('parley-eval/parley@'));
    expect(step?.with).toEqual({ suite: 'evals', 'node-version': 22 });
    expect(existsSync(join(project, 'evals', 'parley.yaml'))).toBe(true);
    // .parley/ is made where parley runs (the project root): the project's .gitignore ignores it at any depth.
    expect(readFileSync(join(project, '.gitignore'), 'utf8').split('\n')).toContain('.parley/');
    expect(existsSync(join(project, 'evals', '.gitignore'))).toBe(false);
  });

  it('asks for the agent kind when there is someone to ask, until the answer is one', async () => {
    const project = emptyProject();
    const output = captureOutput();
    const answers = ['7', 'grpc', '5'];
    const questions: string[] = [];
    const code = await initCommand('.', {}, { cwd: project, env: {}, output, clock: systemClock, random: systemRandom() }, async (question) => {
      questions.push(question);
      return answers.shift() ?? '';
    });
    expect(code).toBe(0);
    expect(questions).toHaveLength(3);
    expect(questions[0]).toContain('  5. command ');
    for (const line of questions[0]!.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(output.stderr()).toContain('"7" is not one of 1-6');
    expect(output.stderr()).toContain('"grpc" is not one of 1-6');
    expect(output.stdout()).toContain('a suite with one command agent');
  });

  it('refuses an unknown --agent-kind with exit 2', async () => {
    const result = await parley(['init', '--agent-kind', 'grpc'], emptyProject());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Allowed choices are openai, anthropic, openai-compatible, http, command, module');
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
    expect(fake.requests.every((request) => request.api === (kind === 'anthropic' ? 'anthropic' : 'openai'))).toBe(true);
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

  it('an http suite without AGENT_URL says which variable is missing', async () => {
    const project = emptyProject();
    mkdirSync(project, { recursive: true });
    expect((await parley(['init', '--agent-kind', 'http'], project)).code).toBe(0);
    const run = await parleyAsync(['run', '.', '--mode', 'record', '--out', 'reports'], { cwd: project });
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toContain('${AGENT_URL} is not set in the environment');
  });
});
