import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { displayPath } from '@parley/core';
import { Option, type Command } from 'commander';
import {
  isScaffoldAgentKind,
  SCAFFOLD_AGENT_KIND_HELP,
  SCAFFOLD_AGENT_KINDS,
  SCAFFOLD_GITIGNORE_LINES,
  scaffoldSuite,
  scaffoldWorkflow,
  type JsonSchemaKind,
  type ScaffoldAgentKind,
} from '@parley/config';
import type { CommandContext, ProgramContext } from '../program/command-context.js';
import { PARLEY_PACKAGE_NAME } from '../program/package-info.js';

export interface InitFlags {
  yes?: boolean;
  agentKind?: string;
  github?: boolean;
}

/** Reads one answer from the person at the terminal; injected by tests. */
export type Ask = (question: string) => Promise<string>;

/** Adds `parley init [dir]`: scaffolds a suite that validates and runs; never overwrites a file. */
export function register(program: Command, context: ProgramContext): void {
  program
    .command('init')
    .description('scaffold a suite: parley.yaml with one agent, a first scenario, a metric example, .gitignore lines (never overwrites)')
    .argument('[dir]', 'folder of the suite (created when missing)', '.')
    .addOption(new Option('--agent-kind <kind>', 'the kind of agent to test (asked on a terminal, else openai)').choices([...SCAFFOLD_AGENT_KINDS]))
    .option('-y, --yes', 'ask nothing: take the defaults')
    .option('--github', 'also write a GitHub Actions workflow that replays the suite on pull requests')
    .action(async (dir: string, flags: InitFlags) => context.setExitCode(await initCommand(dir, flags, context)))
    .exitOverride();
}

export async function initCommand(dir: string, flags: InitFlags, context: CommandContext, ask?: Ask): Promise<number> {
  const suiteDir = resolve(context.cwd, dir);
  const agentKind = await chooseAgentKind(flags, context, ask);
  const projectRoot = findProjectRoot(suiteDir);
  const packageRoot = packageRootFor(suiteDir);
  const files = scaffoldSuite({
    agentKind,
    suiteName: suiteNameFor(suiteDir),
    schemaRef: (kind, folder) => schemaReference(kind, join(suiteDir, folder), packageRoot),
  }).map((file) => ({ ...file, path: join(suiteDir, file.path) }));
  if (flags.github) {
    const workflow = scaffoldWorkflow({ suitePath: toPosix(relative(projectRoot, suiteDir)) || '.' });
    files.push({ path: join(projectRoot, workflow.path), content: workflow.content });
  }

  mkdirSync(suiteDir, { recursive: true });
  const written: string[] = [];
  const kept: string[] = [];
  for (const file of files) {
    if (writeNew(file.path, file.content)) written.push(file.path);
    else kept.push(file.path);
  }
  // .parley/ is made where parley runs, usually the project root: the project's .gitignore covers every depth.
  const gitignorePath = join(projectRoot, '.gitignore');
  const gitignore = ensureGitignoreLines(gitignorePath);

  const shown = (path: string): string => displayPath(path, context.cwd);
  const lines = [`parley init: a suite with one ${agentKind} agent in ${shown(suiteDir)}`];
  for (const path of written) lines.push(`  wrote  ${shown(path)}`);
  if (gitignore === 'written') lines.push(`  wrote  ${shown(gitignorePath)}`);
  if (gitignore === 'appended') lines.push(`  added  ${SCAFFOLD_GITIGNORE_LINES.join(' ')} to ${shown(gitignorePath)}`);
  for (const path of kept) lines.push(`  kept   ${shown(path)} (exists; not overwritten)`);
  if (gitignore === 'kept') lines.push(`  kept   ${shown(gitignorePath)} (already ignores ${SCAFFOLD_GITIGNORE_LINES.join(' ')})`);
  lines.push('', 'next:', ...nextSteps(agentKind, shown(suiteDir)));
  context.output.out(`${lines.join('\n')}\n`);
  return 0;
}

async function chooseAgentKind(flags: InitFlags, context: CommandContext, ask: Ask | undefined): Promise<ScaffoldAgentKind> {
  if (flags.agentKind !== undefined && isScaffoldAgentKind(flags.agentKind)) return flags.agentKind;
  if (flags.yes || (!context.output.terminal && ask === undefined)) return 'openai';
  const question = [
    'Which kind of agent do you want to test?',
    ...SCAFFOLD_AGENT_KINDS.map((kind, index) => `  ${index + 1}. ${kind.padEnd(18)} ${SCAFFOLD_AGENT_KIND_HELP[kind]}`),
    'Number or name [1]: ',
  ].join('\n');
  const answerWith = ask ?? askOnTerminal;
  for (;;) {
    const answer = (await answerWith(question)).trim();
    const chosen = answer === '' ? SCAFFOLD_AGENT_KINDS[0] : (SCAFFOLD_AGENT_KINDS[Number(answer) - 1] ?? SCAFFOLD_AGENT_KINDS.find((kind) => kind === answer));
    if (chosen !== undefined) return chosen;
    context.output.err(`"${answer}" is not one of 1-${SCAFFOLD_AGENT_KINDS.length} or ${SCAFFOLD_AGENT_KINDS.join(', ')}\n`);
  }
}

async function askOnTerminal(question: string): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await terminal.question(question);
  } finally {
    terminal.close();
  }
}

/** Writes a file that does not exist yet (`wx`: never replaces one, even created meanwhile). */
function writeNew(path: string, content: string): boolean {
  if (existsSync(path)) return false;
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, content, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Adds the lines a suite's .gitignore needs; existing lines and comments are left as they are. */
function ensureGitignoreLines(path: string): 'written' | 'appended' | 'kept' {
  if (!existsSync(path)) {
    writeFileSync(path, `# Parley's run history and reports (keep recordings/ and metrics/.rubric-lock.json)\n${SCAFFOLD_GITIGNORE_LINES.join('\n')}\n`);
    return 'written';
  }
  const text = readFileSync(path, 'utf8');
  const present = new Set(text.split(/\r?\n/).map((line) => line.trim()));
  const missing = SCAFFOLD_GITIGNORE_LINES.filter((line) => !present.has(line) && !present.has(line.replace(/\/$/, '')));
  if (missing.length === 0) return 'kept';
  appendFileSync(path, `${text.endsWith('\n') || text === '' ? '' : '\n'}${missing.join('\n')}\n`);
  return 'appended';
}

/** The nearest folder at or above `dir` holding package.json or .git: where node_modules and .github live. */
function findProjectRoot(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, 'package.json')) || existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return dir;
  }
}

/**
 * The relative path from a written file's folder to the schema in the project's
 * node_modules/parley-eval/schemas/: editors read it from disk, offline, at the installed version.
 * Computed per file, so a suite in a sub-folder of a monorepo points up to the right node_modules.
 */
export function schemaReference(kind: JsonSchemaKind, fromDir: string, packageRoot: string): string {
  return toPosix(relative(fromDir, join(packageRoot, 'node_modules', PARLEY_PACKAGE_NAME, 'schemas', `${kind}.schema.json`)));
}

/**
 * The folder whose node_modules holds parley-eval, as Node finds it from the suite (the nearest
 * one up the tree); before it is installed, the nearest folder with a package.json, else the suite.
 */
export function packageRootFor(suiteDir: string): string {
  let manifest: string | undefined;
  for (let current = suiteDir; ; current = dirname(current)) {
    if (existsSync(join(current, 'node_modules', PARLEY_PACKAGE_NAME, 'package.json'))) return current;
    if (manifest === undefined && existsSync(join(current, 'package.json'))) manifest = current;
    if (dirname(current) === current) return manifest ?? suiteDir;
  }
}

function suiteNameFor(dir: string): string {
  const name = basename(dir).replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[._-]+/, '');
  return name === '' ? 'my_suite' : name;
}

function nextSteps(kind: ScaffoldAgentKind, suite: string): string[] {
  const target = suite === '.' ? '' : ` ${suite}`;
  const setup: Record<ScaffoldAgentKind, string> = {
    openai: '  export OPENAI_API_KEY=…',
    anthropic: '  export ANTHROPIC_API_KEY=…',
    'openai-compatible': '  set base_url in parley.yaml (or export OPENAI_BASE_URL=…)',
    http: `  node ${join(suite, 'agents', 'http-agent.mjs')} &   then   export AGENT_URL=http://127.0.0.1:8787`,
    command: `  edit ${join(suite, 'agents', 'command-agent.mjs')} to call your assistant`,
    module: `  edit ${join(suite, 'agents', 'module-agent.mjs')} to call your assistant`,
  };
  return [
    setup[kind],
    `  npx parley validate${target}`,
    `  npx parley run${target} --mode record     # live; writes recordings/ (commit them)`,
    `  npx parley run${target}                   # replays offline`,
  ];
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}
