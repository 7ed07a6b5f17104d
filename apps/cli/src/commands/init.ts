import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { displayPath, nearestFolder, writeFileAtomically, writeNewFileAtomically, writeTargetOf } from '@parley/core';
import { EXIT_INTERRUPTED } from '@parley/gate';
import { Option, type Command } from 'commander';
import type * as Config from '@parley/config';
import type { JsonSchemaKind, ScaffoldAgentKind } from '@parley/config';
import type { CommandContext, ProgramContext } from '../program/command-context.js';
import { PARLEY_PACKAGE_NAME } from '../program/package-info.js';

export interface InitFlags {
  yes?: boolean;
  agentKind?: string;
  github?: boolean;
  force?: boolean;
}

/** Reads one answer from the person at the terminal; injected by tests. */
export type Ask = (question: string) => Promise<string>;

/**
 * The kinds `--agent-kind` offers: @parley/config's SCAFFOLD_AGENT_KINDS (init.test.ts holds the
 * two equal), written out so that registering the command loads no configuration library.
 */
export const INIT_AGENT_KINDS = ['openai', 'openai-responses', 'anthropic', 'openai-compatible', 'http', 'command', 'module'] as const satisfies readonly ScaffoldAgentKind[];

/** Adds `parley init [dir]`: scaffolds a suite that validates and runs; never overwrites a file. */
export function register(program: Command, context: ProgramContext): void {
  program
    .command('init')
    .description('scaffold a suite that passes offline at once: parley.yaml with one agent, a first scenario and its starter recording, a metric example, .gitignore lines (never overwrites without --force)')
    .argument('[dir]', 'folder of the suite (created when missing)', '.')
    .addOption(new Option('--agent-kind <kind>', 'the kind of agent to test (asked on a terminal, else openai)').choices([...INIT_AGENT_KINDS]))
    .option('-y, --yes', 'ask nothing: take the defaults')
    .option('--github', "also write a GitHub Actions workflow (at the git root) that replays the suite on pull requests")
    .option('--force', 'replace the files a scaffold writes (parley.yaml, the first scenario, the stubs) even when they exist')
    .action(async (dir: string, flags: InitFlags) => context.setExitCode(await initCommand(dir, flags, context)))
    .exitOverride();
}

export async function initCommand(dir: string, flags: InitFlags, context: CommandContext, ask?: Ask): Promise<number> {
  const suiteDir = resolve(context.cwd, dir);
  const config = await import('@parley/config');
  const agentKind = await chooseAgentKind(flags, context, ask, config);
  if (agentKind === undefined) {
    // Ctrl-C or Ctrl-D at the question: the person stopped init, which has not written anything yet.
    context.output.err('\nparley init: stopped at the question; nothing was written\n');
    return EXIT_INTERRUPTED;
  }
  const shown = (path: string): string => displayPath(path, context.cwd);

  // Another kind over an existing suite would keep parley.yaml and add a stub nothing uses.
  const existingKinds = agentKindsOf(join(suiteDir, 'parley.yaml'), config);
  if (existingKinds !== undefined && !existingKinds.includes(agentKind) && !flags.force) {
    context.output.err(
      `parley init: ${shown(join(suiteDir, 'parley.yaml'))} exists with ${existingKinds.length === 0 ? 'no agent init knows' : `${article(existingKinds[0]!)} ${existingKinds.join(', ')} agent`}, not ${agentKind}; nothing was written.\n` +
        `  add ${article(agentKind)} ${agentKind} agent to it yourself (its editor schema, printed by parley schema suite, lists the keys), or run parley init again with --force to replace the scaffold's files\n`,
    );
    return 2;
  }

  const projectRoot = findProjectRoot(suiteDir);
  const packageRoot = packageRootFor(suiteDir);
  const files = config.scaffoldSuite({
    agentKind,
    suiteName: suiteNameFor(suiteDir),
    suitePath: toPosix(relative(packageRoot, suiteDir)) || '.',
    schemaRef: (kind, folder) => schemaReference(kind, join(suiteDir, folder), packageRoot),
  }).map((file) => ({ ...file, path: join(suiteDir, file.path) }));
  let workflowNote: string | undefined;
  if (flags.github) {
    const gitRoot = findGitRoot(suiteDir);
    const workflowRoot = gitRoot ?? projectRoot;
    if (gitRoot === undefined) workflowNote = `not inside a git repository: the workflow is at ${shown(workflowRoot)}; move .github/ to your repository's root`;
    const workflow = config.scaffoldWorkflow({
      projectPath: toPosix(relative(workflowRoot, packageRoot)) || '.',
      suitePath: toPosix(relative(packageRoot, suiteDir)) || '.',
      nodeVersionFile: nodeVersionFile(packageRoot, workflowRoot),
      lockFile: existsSync(join(packageRoot, 'package-lock.json')),
      ...(gitRoot !== undefined ? currentBranch(gitRoot, context.env) : {}),
    });
    files.push({ path: join(workflowRoot, workflow.path), content: workflow.content });
  }

  const gitignorePath = join(projectRoot, '.gitignore');
  writeTargetOf(gitignorePath, projectRoot); // a .gitignore link that would be refused is refused before anything is written
  mkdirSync(suiteDir, { recursive: true });
  const written: string[] = [];
  const kept: string[] = [];
  for (const file of files) {
    if (flags.force ? replace(file.path, file.content) : writeNew(file.path, file.content)) written.push(file.path);
    else kept.push(file.path);
  }
  // .parley/ is made where parley runs, usually the project root: the project's .gitignore covers every depth.
  const gitignore = ensureGitignoreLines(gitignorePath, config);

  // The first scenario recorded, so `npx parley run` replays and passes offline at once.
  const recording = join(suiteDir, 'recordings', 'first_conversation.jsonl');
  let recorded: 'written' | 'kept' | string = 'kept';
  // Loaded here: the scripted responder's HTTP server and child processes cost every command's start-up.
  const { recordStarterConversation, starterRecordingNote } = await import('./init-recording.js');
  if (!existsSync(recording) || flags.force) {
    try {
      await recordStarterConversation(suiteDir, agentKind);
      recorded = 'written';
    } catch (error) {
      recorded = error instanceof Error ? error.message : String(error);
    }
  }

  const lines = [`parley init: a suite with one ${agentKind} agent in ${shown(suiteDir)}`];
  for (const path of written) lines.push(`  wrote  ${shown(path)}`);
  if (recorded === 'written') lines.push(`  wrote  ${shown(recording)}  (starter recording: ${starterRecordingNote(agentKind)})`);
  if (gitignore === 'written') lines.push(`  wrote  ${shown(gitignorePath)}`);
  if (gitignore === 'appended') lines.push(`  added  ${config.SCAFFOLD_GITIGNORE_LINES.join(' ')} to ${shown(gitignorePath)}`);
  for (const path of kept) lines.push(`  kept   ${shown(path)} (exists; not overwritten)`);
  if (recorded === 'kept') lines.push(`  kept   ${shown(recording)} (exists; not re-recorded)`);
  if (gitignore === 'kept') lines.push(`  kept   ${shown(gitignorePath)} (already ignores ${config.SCAFFOLD_GITIGNORE_LINES.join(' ')})`);
  if (workflowNote) lines.push(`  note   ${workflowNote}`);
  const toAdd = [join(suiteDir, 'parley.yaml'), ...['scenarios', 'metrics', 'recordings', 'prompts', 'agents'].map((folder) => join(suiteDir, folder))]
    .filter((path) => existsSync(path))
    .concat(gitignore === 'kept' ? [] : [gitignorePath])
    .concat(files.filter((file) => file.path.endsWith(join('.github', 'workflows', 'parley.yml')) && existsSync(file.path)).map((file) => file.path));
  const relativePath = (path: string): string => toPosix(relative(context.cwd, path)) || '.';
  lines.push('', 'next (each npx, node and git line works as pasted in bash, zsh, PowerShell and cmd):', ...nextSteps(agentKind, relativePath(suiteDir), toAdd.map(relativePath)));
  context.output.out(`${lines.join('\n')}\n`);
  if (recorded !== 'written' && recorded !== 'kept') {
    context.output.err(`parley init: could not record the starter conversation (${recorded}); npx parley run --mode record records it against your agent\n`);
  }
  return 0;
}

/** `an` before the kinds said with a vowel first (an openai, an anthropic, an http agent), else `a`. */
function article(kind: string): string {
  return /^[aeiouh]/.test(kind) ? 'an' : 'a';
}

/**
 * The agent kinds of an existing parley.yaml (undefined when there is none; [] when it has no
 * readable agents). Read with the configuration library's reader, as every command reads YAML: a
 * dynamic `import('yaml')` has no named exports in the CLI's bundle.
 */
function agentKindsOf(file: string, config: typeof Config): string[] | undefined {
  if (!existsSync(file)) return undefined;
  const suite = config.readConfigFile(file, config.SuiteSchema, { format: 'yaml' }).raw as { agents?: Record<string, { kind?: unknown } | null> } | null | undefined;
  const agents = suite !== null && typeof suite === 'object' && !Array.isArray(suite) ? suite.agents : undefined;
  if (agents === null || typeof agents !== 'object' || Array.isArray(agents)) return [];
  return Object.values(agents).flatMap((agent) => (typeof agent?.kind === 'string' ? [agent.kind] : []));
}

/** The nearest folder at or above `dir` with a .git (folder, or file in a worktree): the repository's root. */
function findGitRoot(dir: string): string | undefined {
  return nearestFolder(dir, (folder) => existsSync(join(folder, '.git')));
}

/**
 * The repository's current branch (`git symbolic-ref --short HEAD`), for the workflow's push
 * trigger: `master` in a repository git init made without init.defaultBranch. Nothing when git
 * cannot say (no git, a detached HEAD).
 */
function currentBranch(gitRoot: string, env: NodeJS.ProcessEnv): { branch?: string } {
  const result = spawnSync('git', ['symbolic-ref', '--short', 'HEAD'], { cwd: gitRoot, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const branch = result.status === 0 ? result.stdout.trim() : '';
  return branch !== '' ? { branch } : {};
}

/** Where setup-node should read the Node version: .nvmrc / .node-version, else package.json's engines.node. */
function nodeVersionFile(packageRoot: string, gitRoot: string): string | undefined {
  const posix = (path: string): string => toPosix(relative(gitRoot, path));
  for (const name of ['.nvmrc', '.node-version']) if (existsSync(join(packageRoot, name))) return posix(join(packageRoot, name));
  const manifest = join(packageRoot, 'package.json');
  try {
    const engines = (JSON.parse(readFileSync(manifest, 'utf8')) as { engines?: { node?: unknown } }).engines;
    if (typeof engines?.node === 'string') return posix(manifest);
  } catch {
    // no package.json, or not JSON: setup-node is given a version instead
  }
  return undefined;
}

/** Writes a file, replacing one that exists (`--force`). */
function replace(path: string, content: string): boolean {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomically(path, content);
  return true;
}

async function chooseAgentKind(
  flags: InitFlags,
  context: CommandContext,
  ask: Ask | undefined,
  { isScaffoldAgentKind, SCAFFOLD_AGENT_KINDS, SCAFFOLD_AGENT_KIND_HELP }: typeof Config,
): Promise<ScaffoldAgentKind | undefined> {
  if (flags.agentKind !== undefined && isScaffoldAgentKind(flags.agentKind)) return flags.agentKind;
  if (flags.yes || (!context.output.terminal && ask === undefined)) return 'openai';
  const question = [
    'Which kind of agent do you want to test?',
    ...SCAFFOLD_AGENT_KINDS.map((kind, index) => `  ${index + 1}. ${kind.padEnd(18)} ${SCAFFOLD_AGENT_KIND_HELP[kind]}`),
    'Number or name [1]: ',
  ].join('\n');
  const answerWith = ask ?? askOnTerminal;
  for (;;) {
    let answer: string;
    try {
      answer = (await answerWith(question)).trim();
    } catch (error) {
      // readline ends the question with an AbortError on Ctrl-C and Ctrl-D.
      if (error instanceof Error && error.name === 'AbortError') return undefined;
      throw error;
    }
    const chosen = answer === '' ? SCAFFOLD_AGENT_KINDS[0] : (SCAFFOLD_AGENT_KINDS[Number(answer) - 1] ?? SCAFFOLD_AGENT_KINDS.find((kind) => kind === answer));
    if (chosen !== undefined) return chosen;
    context.output.err(`"${answer}" is not one of 1-${SCAFFOLD_AGENT_KINDS.length} or ${SCAFFOLD_AGENT_KINDS.join(', ')}\n`);
  }
}

async function askOnTerminal(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
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
    writeNewFileAtomically(path, content);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Adds the lines a suite's .gitignore needs; existing lines and comments are left as they are. */
function ensureGitignoreLines(named: string, { SCAFFOLD_GITIGNORE_LINES }: typeof Config): 'written' | 'appended' | 'kept' {
  // A linked .gitignore is written through only to a regular file in its own folder; a dangling link
  // or one leading elsewhere is refused (exit 2) rather than followed to create a file out there.
  const path = writeTargetOf(named, dirname(named));
  if (!existsSync(path)) {
    writeNewFileAtomically(path, `# Parley's run history and reports (keep recordings/ and metrics/.rubric-lock.json)\n${SCAFFOLD_GITIGNORE_LINES.join('\n')}\n`);
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
  return nearestFolder(dir, (folder) => existsSync(join(folder, 'package.json')) || existsSync(join(folder, '.git'))) ?? dir;
}

/**
 * The relative path from a written file's folder to the schema in the project's
 * node_modules/parley-eval/schemas/: editors read it from disk, offline, at the installed version.
 * Computed per file, so a suite in a sub-folder of a monorepo points up to the right node_modules.
 */
function schemaReference(kind: JsonSchemaKind, fromDir: string, packageRoot: string): string {
  return toPosix(relative(fromDir, join(packageRoot, 'node_modules', PARLEY_PACKAGE_NAME, 'schemas', `${kind}.schema.json`)));
}

/**
 * The folder whose node_modules holds parley-eval, as Node finds it from the suite (the nearest
 * one up the tree); before it is installed, the nearest folder with a package.json, else the suite.
 */
function packageRootFor(suiteDir: string): string {
  return (
    nearestFolder(suiteDir, (folder) => existsSync(join(folder, 'node_modules', PARLEY_PACKAGE_NAME, 'package.json'))) ??
    nearestFolder(suiteDir, (folder) => existsSync(join(folder, 'package.json'))) ??
    suiteDir
  );
}

function suiteNameFor(dir: string): string {
  const name = basename(dir).replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[._-]+/, '');
  return name === '' ? 'my_suite' : name;
}

/**
 * What to do next: each command on a line of its own (indented by four), under a line saying what
 * it does (indented by two), so that every command line works as pasted in bash, zsh, PowerShell
 * and cmd: no `export`, no `&`, no `VAR=value command`, and no `# note` after a command (cmd has
 * no comments there: the note's words would be the command's arguments).
 */
function nextSteps(kind: ScaffoldAgentKind, suite: string, toAdd: readonly string[]): string[] {
  const target = suite === '.' ? '' : ` ${suite}`;
  const file = (path: string): string => (suite === '.' ? path : `${suite}/${path}`);
  const record = 'record your agent for real into recordings/:';
  const keyStep = (variable: string): string[] => [`  set ${variable} in your environment (bash/zsh: export ${variable}=…  PowerShell: $env:${variable}="…"), then ${record}`];
  const setup: Record<ScaffoldAgentKind, string[]> = {
    openai: keyStep('OPENAI_API_KEY'),
    'openai-responses': keyStep('OPENAI_API_KEY'),
    anthropic: keyStep('ANTHROPIC_API_KEY'),
    'openai-compatible': [`  set base_url in ${file('parley.yaml')} to your server (or OPENAI_BASE_URL in your environment), then ${record}`],
    http: [
      '  in a second terminal, start the stub on http://127.0.0.1:8787 (or start your service and set AGENT_URL):',
      `    node ${file('agents/http-agent.mjs')}`,
      `  then ${record}`,
    ],
    command: [`  edit ${file('agents/command-agent.mjs')} to call your assistant, then ${record}`],
    module: [`  edit ${file('agents/module-agent.mjs')} to call your assistant, then ${record}`],
  };
  return [
    '  run the suite: it passes now, offline (it replays the starter recording); check every file:',
    `    npx parley run${target}`,
    `    npx parley validate${target}`,
    ...setup[kind],
    `    npx parley run${target} --mode record`,
    '  commit what init wrote:',
    `    git add ${toAdd.join(' ')}`,
  ];
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}
