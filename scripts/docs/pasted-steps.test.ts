import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock, systemRandom } from '@parley/core';
import { buildProgram, commandsFor } from '../../apps/cli/src/main.js';
import { repositoryRoot as root } from '../workspace-packages.js';
// @ts-expect-error: a plain ES module without declarations, also run by scripts/consumer-test.sh.
import { commandLines, documentedFiles, parleyArguments, shellBlocks, simpleCommands } from './shell-blocks.mjs';

interface Block {
  file: string;
  line: number;
  kind: 'pasted' | 'parse-only' | 'not-run' | undefined;
  how: string;
  commands: string[];
}

const blocks: Block[] = (documentedFiles() as string[]).flatMap((file) => shellBlocks(file) as Block[]);
const where = (block: Block) => `${block.file}:${block.line}`;

type Command = ReturnType<typeof buildProgram>;
type Option = Command['options'][number];

/** The real `parley` program: every command and option as the CLI registers them (nothing is run). */
const program = buildProgram(
  { cwd: root, env: {}, output: { out: () => {}, err: () => {}, color: false }, clock: systemClock, random: systemRandom() } as Parameters<typeof buildProgram>[0],
  () => {},
  await commandsFor([]),
);

function findOption(command: Command, flag: string): Option | undefined {
  for (let current: Command | null = command; current !== null; current = current.parent) {
    const option = current.options.find((candidate) => candidate.long === flag || candidate.short === flag);
    if (option !== undefined) return option;
  }
  return undefined;
}

/**
 * What is wrong with `parley ARGS` for the real program, without running it: an unknown command, an
 * unknown flag, a flag without its value or with a value outside its choices, missing or extra arguments.
 */
function parseProblems(args: string[]): string[] {
  let command = program;
  let index = 0;
  while (index < args.length && command.commands.length > 0) {
    const word = args[index] ?? '';
    if (word.startsWith('-')) break;
    const sub = command.commands.find((candidate) => candidate.name() === word || candidate.aliases().includes(word));
    if (sub === undefined) return command.registeredArguments.length > 0 ? [] : [`unknown command "${word}" of parley ${command.name()}`];
    command = sub;
    index++;
  }
  if (command === program) return [`no command: parley ${args.join(' ')}`];
  const problems: string[] = [];
  const positional: string[] = [];
  for (; index < args.length; index++) {
    const word = args[index] ?? '';
    if (word === '--help' || word === '-h') continue;
    if (!word.startsWith('-') || word === '-') {
      positional.push(word);
      continue;
    }
    const [flag = '', inline] = word.split(/=(.*)/s);
    const option = findOption(command, flag);
    if (option === undefined) {
      problems.push(`parley ${command.name()}: unknown option ${flag}`);
      continue;
    }
    let value = inline;
    if (value === undefined && (option.required || (option.optional && !(args[index + 1] ?? '-').startsWith('-')))) value = args[++index];
    if (option.required && value === undefined) problems.push(`parley ${command.name()}: ${flag} needs a value`);
    const choices = option.argChoices;
    if (value !== undefined && choices !== undefined && !value.split(',').every((part) => choices.includes(part)))
      problems.push(`parley ${command.name()}: ${flag} ${value} is not one of ${choices.join(', ')}`);
  }
  const declared = command.registeredArguments;
  const required = declared.filter((argument) => argument.required).length;
  if (positional.length < required) problems.push(`parley ${command.name()}: ${required} argument(s) needed, ${positional.length} given`);
  if (!declared.some((argument) => argument.variadic) && positional.length > declared.length)
    problems.push(`parley ${command.name()}: extra arguments ${positional.slice(declared.length).join(' ')}`);
  return problems;
}

describe('the shell blocks of the README and docs/', () => {
  it('finds the blocks: the README has pasted steps, docs/ has more', () => {
    expect(blocks.filter((block) => block.file === 'README.md' && block.kind === 'pasted').length).toBeGreaterThanOrEqual(3);
    expect(blocks.length).toBeGreaterThan(15);
    const parleyLines = blocks
      .filter((block) => block.kind !== 'not-run')
      .flatMap((block) => block.commands.flatMap((line) => (simpleCommands(line) as string[][]).filter((words) => parleyArguments(words) !== undefined)));
    expect(parleyLines.length).toBeGreaterThan(25);
  });

  it('marks every block with how the pasted-steps test covers it', () => {
    const unmarked = blocks.filter((block) => block.kind === undefined).map(where);
    expect(
      unmarked,
      'put one of these on the line before each block: <!-- pasted: project --> (run in a fresh project by scripts/consumer-test.sh), <!-- pasted: examples --> (run here on a copy of examples/), <!-- pasted: ci (…) --> (run by .ci/run), <!-- parse-only: why --> (each parley line parsed by the real CLI), <!-- not-run: why -->',
    ).toEqual([]);
    for (const block of blocks.filter((candidate) => candidate.kind === 'pasted'))
      expect(['project', 'examples', 'ci'], `${where(block)}: pasted: ${block.how}`).toContain(block.how.split(/[\s,]/)[0]);
    for (const block of blocks.filter((candidate) => candidate.kind === 'parse-only' || candidate.kind === 'not-run'))
      expect(block.how, `${where(block)} says why it is not run`).not.toBe('');
  });

  it('parses shell lines as a shell does: quotes, comments, continuations, pipes, redirections, assignments', () => {
    expect(commandLines(['parley canary compare --logs a.jsonl \\', '  --stable v7 || set-rollout booking 0   # exit 1', '# a comment', ''])).toEqual([
      'parley canary compare --logs a.jsonl    --stable v7 || set-rollout booking 0',
    ]);
    expect(simpleCommands('cut -f1 ids.txt | KEY=1 npx parley canary assign --salt "a b#c" > arms.tsv 2>&1 &')).toEqual([
      ['cut', '-f1', 'ids.txt'],
      ['npx', 'parley', 'canary', 'assign', '--salt', 'a b#c'],
    ]);
  });

  it('catches what the real CLI would refuse', () => {
    expect(parseProblems(['run', 'examples/booking', '--agent', 'a', '--mode', 'replay'])).toEqual([]);
    expect(parseProblems(['run', '--mod', 'replay'])).toEqual(['parley run: unknown option --mod']);
    expect(parseProblems(['run', '--mode', 'playback'])).toEqual(['parley run: --mode playback is not one of replay, live, record']);
    expect(parseProblems(['runz'])).toEqual(['unknown command "runz" of parley parley']);
    expect(parseProblems(['canary', 'compare', '--logs', 'x', 'extra'])).toEqual(['parley compare: extra arguments extra']);
    expect(parseProblems(['compare'])[0]).toMatch(/argument\(s\) needed/);
  });

  const parsed = blocks.filter((block) => block.kind !== 'not-run' && block.kind !== undefined);
  it.each(parsed.map((block) => [`${where(block)} (${block.kind}${block.how ? `: ${block.how}` : ''})`, block] as const))(
    'every parley line of %s exists in the CLI',
    (_name, block) => {
      const problems = block.commands.flatMap((line) =>
        (simpleCommands(line) as string[][]).flatMap((words) => {
          const args = parleyArguments(words) as string[] | undefined;
          return args === undefined ? [] : parseProblems(args).map((problem) => `${line}: ${problem}`);
        }),
      );
      expect(problems).toEqual([]);
    },
  );

  const notRun = blocks.filter((block) => block.kind === 'not-run');
  it.each(notRun.map((block) => [`${where(block)}: ${block.how}`, block] as const))('not run: %s', (_name, block) => {
    expect(block.commands.length).toBeGreaterThan(0);
  });

  it('runs every `npm run` script a block names', () => {
    const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const named = blocks
      .filter((block) => block.kind !== 'not-run')
      .flatMap((block) => block.commands.flatMap((line) => (simpleCommands(line) as string[][]).filter((words) => words[0] === 'npm' && words[1] === 'run')))
      .map((words) => words[2] ?? '');
    expect(named.length).toBeGreaterThan(3);
    for (const script of named) expect(Object.keys(scripts), `npm run ${script}`).toContain(script);
  });

  it('.ci/run runs each line of the blocks it is said to run', () => {
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    const lines = blocks.filter((block) => block.kind === 'pasted' && block.how.startsWith('ci')).flatMap((block) => block.commands);
    expect(lines).toContain('npm test');
    for (const line of lines) {
      const words = (simpleCommands(line) as string[][])[0] ?? [];
      const args = parleyArguments(words) as string[] | undefined;
      if (args?.[0] === 'run') {
        // run_examples: `npx parley run "$suite"` for each suite of its list.
        expect(ci, line).toContain('npx parley run "$suite"');
        expect(ci.match(/for suite in ([^;]+);/)?.[1]?.split(/\s+/), line).toContain(args[1]);
      } else if (line === 'npm install') expect(ci, line).toMatch(/\bnpm ci\b/); // the lockfile's install, on a clean clone
      else expect(ci, line).toContain(line);
    }
  });
});

describe('the blocks pasted on the examples run, offline', () => {
  const work = mkdtempSync(join(tmpdir(), 'parley-pasted-'));
  cpSync(join(root, 'examples'), join(work, 'examples'), { recursive: true, filter: (source) => !/[/\\](\.parley|node_modules)([/\\]|$)/.test(source.slice(root.length)) });
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const bin = join(root, 'apps', 'cli', 'bin', 'parley.js');
  const preload = join(root, 'apps', 'cli', 'src', 'test-support', 'no-network.cjs');

  const pasted = blocks.filter((block) => block.kind === 'pasted' && block.how.startsWith('examples'));
  // A block's marker may give the exit code its steps end with (`<!-- pasted: examples, exit 1 -->`), else 0.
  const exitCode = (block: Block) => Number(/\bexit (\d+)/.exec(block.how)?.[1] ?? 0);
  it.each(pasted.flatMap((block) => block.commands.map((line) => [`${where(block)}: ${line.slice(0, 100)}`, line, exitCode(block)] as const)))(
    '%s',
    (_name, line, expected) => {
      expect(existsSync(bin), 'npm run build first').toBe(true);
      const networkLog = join(work, 'network.log');
      rmSync(networkLog, { force: true });
      const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: `--require ${preload}`, PARLEY_NETWORK_LOG: networkLog, NO_COLOR: '1' };
      delete env.OPENAI_API_KEY;
      delete env.ANTHROPIC_API_KEY;
      // `npx parley` of an adopter is this checkout's built command here.
      const script = line.replaceAll(/(^|&&\s*|\|\|?\s*|;\s*)(npx )?parley /g, `$1node ${JSON.stringify(bin)} `);
      const result = spawnSync('bash', ['-c', script], { cwd: work, env, encoding: 'utf8', timeout: 240_000 });
      expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(expected);
      expect(existsSync(networkLog) ? readFileSync(networkLog, 'utf8') : '').toBe('');
    },
    300_000,
  );
});
