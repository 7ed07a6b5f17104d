import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { buildProgram, commandsFor, main } from './main.js';
import { allCommands } from './program/command-help.js';
import { captureOutput } from './test-support/capture-output.js';
import { REPO_ROOT } from './test-support/example-copy.js';
import { mountSmallDisk } from './test-support/small-disk.js';

/**
 * Every command over the path cases an ordinary user meets (issue 24, item 12): a file where a
 * folder must be, a path through a file, a 300-character name, a read-only file system, a folder
 * where a file must be, a run history that is not a database. Each is the user's to fix: exit 2,
 * a line naming the path and what to do, never "internal error" and never a stack. The commands
 * are read from the program itself, so a new command is walked as soon as it is registered; its
 * path parameters are found by name (PATH_PARAMETERS).
 */

/** Arguments that name a file or folder (options are known by their placeholder: `--out <dir>`, `--logs <file>`). */
const PATH_ARGUMENTS = new Set(['suite', 'dir', 'dirs', 'file', 'reports', 'before', 'after', 'run']);
const PATH_PLACEHOLDER = /<(dir|file)>/;

/** What a command needs besides the parameter under test (its arguments, then options), so that it gets as far as using that path. */
const BASE: Record<string, { args?: string[]; options?: string[] }> = {
  run: { args: ['suite'] },
  'tui run': { args: ['suite'] },
  'recordings export': { args: ['suite'], options: ['--out', 'exported'] },
  promote: { options: ['--logs', 'logs.jsonl', '--feedback', 'feedback.jsonl', '--suite', 'suite', '--agent', 'booking'] },
  generate: { options: ['--from-dataset', 'logs.jsonl', '--suite', 'suite', '--agent', 'booking'] },
  monitor: { options: ['--logs', 'logs.jsonl', '--suite', 'suite'] },
  'canary compare': { options: ['--logs', 'logs.jsonl', '--feedback', 'feedback.jsonl', '--stable', 'v1', '--canary', 'v2'] },
  'calibrate import': { args: ['logs.jsonl'] },
  'calibrate judge': { options: ['--dir', 'calibration'] },
  'merge-reports': { args: ['report'] },
  compare: { args: ['report', 'report'] },
  export: { args: ['report'], options: ['--to', 'otlp'] },
  schema: { args: ['scenario'] },
  'canary assign': { args: ['ids.txt'] },
  // From a server that is not there: the local file is opened (and its path checked) before any connection.
  'store copy': { options: ['--from', 'postgres://parley@127.0.0.1:1/none'] },
};

const NAME = 'n'.repeat(300);

const CONVERSATION = {
  conversation_id: 'c-1',
  language: 'en',
  prompt_version: 'v1',
  turns: [
    { role: 'user', content: 'Can I book a massage on Saturday?', timestamp: '2026-11-27T09:00:00Z' },
    { role: 'assistant', content: 'Yes, 10:00 is free. Shall I book it?', timestamp: '2026-11-27T09:00:02Z' },
  ],
};

/** The TUI's commands refuse at once without an interactive terminal (as here): that line, exit 2, is what they must say. */
const NEEDS_TERMINAL = /^tui /;

interface PathCase {
  name: string;
  /** The value given, from the work folder. */
  value: (work: Work) => string;
  /** A piece of the path the error line must show (so the error is about this path, not another). */
  shows: string;
}

interface Work {
  dir: string;
  readOnly: string;
}

const CASES: PathCase[] = [
  { name: 'a file where a folder must be, or a path through a file', value: () => 'afile/inside', shows: 'afile' },
  { name: 'a 300-character name', value: () => NAME, shows: 'nnnnnnnnnn' },
  // Written to, it is refused as read-only; read from, as not found: named either way.
  { name: 'a path on a read-only file system', value: (work) => join(work.readOnly, 'suite', 'new'), shows: 'parley-small-disk-' },
];

const EVERY_COMMAND = commandsFor([]);

function leafCommands(): Array<{ name: string; command: Command }> {
  const output = captureOutput();
  const program = buildProgram({ cwd: tmpdir(), env: {}, output, clock: manualClock(), random: seededRandom(1), githubAnnotations: false }, () => undefined, EVERY_COMMAND);
  return allCommands(program)
    .filter((command) => command.commands.length === 0)
    .map((command) => {
      const names: string[] = [];
      for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
      return { name: names.join(' '), command };
    });
}

/** The path parameters of a command: `--flag` for options, the name for arguments (with their position). */
function pathParameters(command: Command): Array<{ name: string; position?: number }> {
  const options = command.options.flatMap((option) => (option.long !== undefined && PATH_PLACEHOLDER.test(option.flags) ? [{ name: option.long }] : []));
  const argumentsByName = command.registeredArguments.flatMap((argument, position) => (PATH_ARGUMENTS.has(argument.name()) ? [{ name: argument.name(), position }] : []));
  return [...options, ...argumentsByName];
}

/** The command line with `value` in the parameter's place (replacing a base argument or option there, if any). */
function commandLine(name: string, parameter: { name: string; position?: number }, value: string): string[] {
  const args = [...(BASE[name]?.args ?? [])];
  const options = [...(BASE[name]?.options ?? [])];
  if (parameter.position !== undefined) args[parameter.position] = value;
  else {
    const at = options.indexOf(parameter.name);
    if (at >= 0) options.splice(at, 2);
    options.push(parameter.name, value);
  }
  return [...name.split(' '), ...args, ...options];
}

let seed = 300;
async function parley(argv: string[], cwd: string) {
  const output = captureOutput();
  // A seed per call: each run gets a run id of its own.
  const code = await main(argv, { cwd, env: { PATH: process.env.PATH }, output, clock: manualClock(new Date('2026-12-07T09:00:00Z')), random: seededRandom((seed += 1)) });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

function expectUserError(result: { code: number; stderr: string }, what: string): void {
  expect(result.stderr, what).not.toMatch(/internal error|this is a bug/);
  expect(result.stderr, what).not.toMatch(/\n\s+at /); // no stack
  expect(result.code, `${what}\n${result.stderr}`).toBe(2);
}

let work: Work;
let disk: ReturnType<typeof mountSmallDisk>;
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-path-cases-'));
  cpSync(join(REPO_ROOT, 'examples/booking'), join(dir, 'suite'), { recursive: true, filter: (source) => !source.includes('/.parley') });
  writeFileSync(join(dir, 'afile'), 'a file, not a folder\n');
  // One production conversation with a 👎: promote, generate --from-dataset and calibrate import get as far as writing it.
  writeFileSync(join(dir, 'logs.jsonl'), [CONVERSATION, { ...CONVERSATION, conversation_id: 'c-2', prompt_version: 'v2' }].map((item) => `${JSON.stringify(item)}\n`).join(''));
  cpSync(join(REPO_ROOT, 'calibration'), join(dir, 'calibration'), { recursive: true });
  writeFileSync(join(dir, 'feedback.jsonl'), `${JSON.stringify({ conversation_id: CONVERSATION.conversation_id, user_feedback: '👎' })}\n`);
  writeFileSync(join(dir, 'ids.txt'), 'c1\n');
  disk = mountSmallDisk(2048);
  cpSync(join(dir, 'suite'), join(disk.dir, 'suite'), { recursive: true });
  execFileSync('mount', ['-o', 'remount,ro', disk.dir], { stdio: 'pipe' });
  work = { dir, readOnly: disk.dir };
});
beforeAll(async () => {
  // A report folder (replayed offline) for the commands that read one.
  const run = await parley(['run', 'suite', '--out', 'report'], work.dir);
  expect(run.code, run.stderr).toBe(0);
});
afterAll(() => {
  disk?.unmount();
  if (work) rmSync(work.dir, { recursive: true, force: true });
});

const commands = leafCommands();

describe('every command over the path cases: exit 2 with a line that names the path, never "internal error"', () => {
  it('walks every command of the program (a new one is walked as soon as it is registered)', () => {
    expect(commands.map((entry) => entry.name)).toEqual(expect.arrayContaining(['run', 'init', 'generate', 'promote', 'monitor', 'runs list', 'calibrate import', 'cost']));
    expect(commands.length).toBeGreaterThanOrEqual(26);
  });

  for (const { name, command } of commands) {
    const parameters = pathParameters(command);
    if (parameters.length === 0) continue;
    it(`parley ${name}: ${parameters.map((parameter) => parameter.name).join(', ')}`, async () => {
      for (const parameter of parameters) {
        for (const pathCase of CASES) {
          const argv = commandLine(name, parameter, pathCase.value(work));
          const result = await parley(argv, work.dir);
          const what = `parley ${argv.join(' ').slice(0, 160)} (${pathCase.name})`;
          expectUserError(result, what);
          expect(result.stderr, what).toContain(NEEDS_TERMINAL.test(name) ? 'interactive terminal' : pathCase.shows);
          expect(result.stderr.split('\n').filter((line) => /error/.test(line)), `${what}: one line\n${result.stderr}`).toHaveLength(1);
        }
      }
    });
  }
});

describe('every command in a folder whose run history is not a database, and on a read-only file system', () => {
  /** The work folder again, its `.parley/parley.db` replaced by text (a file a user put there, or one damaged beyond repair). */
  function workWithDamagedHistory(): string {
    const copy = mkdtempSync(join(tmpdir(), 'parley-path-cases-db-'));
    cpSync(work.dir, copy, { recursive: true });
    rmSync(join(copy, '.parley'), { recursive: true, force: true });
    mkdirSync(join(copy, '.parley'));
    writeFileSync(join(copy, '.parley', 'parley.db'), 'these are notes, not a database\n'.repeat(200));
    return copy;
  }

  it('each command either does not need the history (exit 0) or says it is not a Parley database and what to do (exit 2)', async () => {
    const dir = workWithDamagedHistory();
    const refused: string[] = [];
    for (const { name } of commands) {
      // export to Langfuse without keys: refused before any network call (to OTLP it would try localhost:4318).
      const argv = name === 'export' ? ['export', 'report', '--to', 'langfuse'] : [...name.split(' '), ...(BASE[name]?.args ?? []), ...(BASE[name]?.options ?? [])];
      const result = await parley(argv, dir);
      const what = `parley ${argv.join(' ')} with a damaged .parley/parley.db`;
      expect(result.stderr, what).not.toMatch(/internal error|this is a bug|\n\s+at /);
      if (result.code === 0) continue;
      expect(result.code, `${what}\n${result.stderr}`).toBe(2);
      if (/parley\.db/.test(result.stderr)) {
        expect(result.stderr, what).toMatch(/not a database; move it aside \(the run history then starts afresh\) and run again/);
        refused.push(name);
      }
    }
    // The commands that read the history say so (the others stop earlier for their own reasons, or never open it).
    expect(refused).toEqual(expect.arrayContaining(['run', 'runs list', 'cost', 'cache stats']));
  });

  it('each command run in a read-only folder refuses what it cannot write with exit 2 and a line, never "internal error"', async () => {
    const dir = join(work.readOnly, 'suite');
    const readOnly: string[] = [];
    for (const { name } of commands) {
      const argv = [...name.split(' '), ...(BASE[name]?.args ?? []).map((arg) => (arg === 'suite' ? '.' : arg)), ...(BASE[name]?.options ?? [])];
      const result = await parley(argv, dir);
      const what = `parley ${argv.join(' ')} in a read-only folder`;
      expect(result.stderr, what).not.toMatch(/internal error|this is a bug|\n\s+at /);
      expect([0, 2], `${what}\n${result.stderr}`).toContain(result.code);
      if (/read-only/.test(result.stderr)) readOnly.push(name);
    }
    expect(readOnly).toEqual(expect.arrayContaining(['run', 'init']));
  });
});

describe("another machine's lock on the calibration set", () => {
  it('calibrate import waits its bounded time, then says who holds the lock and what to do: exit 2, never "internal error"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-path-cases-lock-'));
    cpSync(join(REPO_ROOT, 'calibration'), join(dir, 'calibration'), { recursive: true });
    writeFileSync(join(dir, 'logs.jsonl'), `${JSON.stringify(CONVERSATION)}\n`);
    // A lock another host left (a shared folder): its pid means nothing here, so it is never broken.
    writeFileSync(join(dir, 'calibration', 'human_labelled.yaml.lock'), '4242\nbuild-agent-7\n2026-12-07T08:59:00.000Z\n');
    const before = readFileSync(join(dir, 'calibration', 'human_labelled.yaml'));
    const result = await parley(['calibrate', 'import', 'logs.jsonl', '--dir', 'calibration'], dir);
    expect(result.stderr).not.toMatch(/internal error|this is a bug|\n\s+at /);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: .*human_labelled\.yaml\.lock is held by process 4242 on build-agent-7 since 2026-12-07T08:59:00\.000Z; if no Parley process is saving, delete the lock file\n$/);
    expect(readFileSync(join(dir, 'calibration', 'human_labelled.yaml'))).toEqual(before);
  }, 60_000);
});
