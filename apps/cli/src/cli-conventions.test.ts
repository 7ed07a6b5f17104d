import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { allCommands, commandPath } from './program/command-help.js';
import { buildProgram, commandsFor, main } from './main.js';
import { captureOutput } from './test-support/capture-output.js';
import { copyExample, REPO_ROOT } from './test-support/example-copy.js';

let seed = 900;
async function parley(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const output = captureOutput();
  seed += 1;
  const code = await main(argv, { cwd, env, output, clock: manualClock(), random: seededRandom(seed) });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

const program = buildProgram(
  { cwd: REPO_ROOT, env: {}, output: captureOutput(), clock: manualClock(), random: seededRandom(1) },
  () => undefined,
  commandsFor([]),
);
/** Commands that do something: groups (`runs`) only hold others, except `tui`, which also runs. */
const commands = allCommands(program).filter((command) => command.commands.length === 0 || commandPath(command) === 'tui');

describe('--help of every command', () => {
  it('covers the commands there are', () => {
    expect(commands.map(commandPath)).toEqual(expect.arrayContaining(['run', 'validate', 'runs list', 'runs show', 'tui', 'tui run', 'calibrate report']));
  });

  it.each(commands.map((command) => [commandPath(command), command] as const))('parley %s --help ends with 2–3 real examples and the environment it reads', async (path, command) => {
    const help = await parley([...path.split(' '), '--help'], REPO_ROOT);
    expect(help.code).toBe(0);
    const footer = help.stdout.slice(help.stdout.lastIndexOf('\nExamples:'));
    expect(footer, help.stdout).toMatch(/^\nExamples:\n/);
    const examples = footer.split('\n').filter((line) => line.startsWith('  $ '));
    expect(examples.length).toBeGreaterThanOrEqual(2);
    expect(examples.length).toBeLessThanOrEqual(3);
    const known = new Set([...command.options.flatMap((option) => [option.long, option.short]), '--no-color']);
    for (const example of examples) {
      expect(example.startsWith(`  $ parley ${path}`), example).toBe(true);
      // Every flag an example uses is one the command has.
      for (const flag of example.match(/(?<=\s)--?[a-z][a-z-]*/g) ?? []) expect(known.has(flag), `${example}: ${flag}`).toBe(true);
    }
    expect(footer).toMatch(/\nEnvironment:\n(  \S.*\n(      \S.*\n?)+)+$/);
    expect(footer).toContain('PARLEY_DEBUG=1');
    for (const line of footer.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('the examples start with parley as the person runs it: npx parley where parley is not on PATH', async () => {
    const output = captureOutput();
    expect(await main(['run', '--help'], { cwd: REPO_ROOT, env: {}, output, parleyCommand: () => 'npx parley' })).toBe(0);
    const examples = output.stdout().split('\n').filter((line) => line.startsWith('  $ '));
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const example of examples) expect(example).toMatch(/^  \$ npx parley run\b/);
  });

  it("names only variables docs/reference.md's environment table describes", async () => {
    const reference = readFileSync(join(REPO_ROOT, 'docs', 'reference.md'), 'utf8');
    const table = reference.slice(reference.indexOf('| variable | read by | what it does |'));
    const described = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)(?:=[^`]*)?`/g)].map((match) => match[1]!));
    const named = new Set<string>();
    for (const command of commands) {
      const help = await parley([...commandPath(command).split(' '), '--help'], REPO_ROOT);
      const environment = help.stdout.slice(help.stdout.lastIndexOf('\nEnvironment:\n'));
      for (const line of environment.split('\n').filter((text) => /^  \S/.test(text))) {
        // OTEL_EXPORTER_OTLP_* stands for a family the table lists one by one.
        for (const variable of line.match(/\b[A-Z][A-Z0-9_]{2,}\b/g) ?? []) if (!variable.endsWith('_')) named.add(variable);
      }
    }
    expect(named).toContain('PARLEY_DATABASE_URL');
    expect([...named].filter((variable) => !described.has(variable))).toEqual([]);
  });

  it('run names the variables it reads, and --reporter with its choices', async () => {
    const help = await parley(['run', '--help'], REPO_ROOT);
    for (const variable of ['OPENAI_API_KEY', 'PARLEY_BUDGET_USD', 'GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'NO_COLOR']) expect(help.stdout).toContain(variable);
    expect(help.stdout).toMatch(/--reporter <name>\s+console \(default\), json, junit, markdown, github or\s+html/);
    expect(help.stdout).toMatch(/--format <format>/);
  });
});

describe('--format json: one JSON document on stdout and nothing else', () => {
  it('validate, runs list and runs show', async () => {
    const suite = copyExample('booking');
    const valid = await parley(['validate', '.', '--format', 'json'], suite);
    expect(valid.code).toBe(0);
    expect(JSON.parse(valid.stdout)).toMatchObject({ valid: true, suite: 'ratiba_booking', scenarios: 8, agents: 2 });

    const run = await parley(['run', '.', '--out', 'out'], suite);
    expect(run.code).toBe(0);
    const list = await parley(['runs', 'list', '--format', 'json'], suite);
    const runs = JSON.parse(list.stdout) as Array<{ id: string; suite: string }>;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ suite: 'ratiba_booking' });
    const show = await parley(['runs', 'show', runs[0]!.id.slice(0, 15), '--format', 'json'], suite);
    const shown = JSON.parse(show.stdout) as { run: { id: string }; results: Array<{ scenario_id: string; status: string }> };
    expect(shown.run.id).toBe(runs[0]!.id);
    expect(shown.results.find((result) => result.scenario_id === 'spa_booking_codeswitch')?.status).toBe('fail');
  });

  it('validate with a problem: the problems as JSON on stdout (no annotations there, even in GitHub Actions), exit 2', async () => {
    const suite = copyExample('booking');
    const file = join(suite, 'scenarios', 'spa_price_question_sw.yaml');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, readFileSync(file, 'utf8').replace('    max: 4', '    max: 4\n    treshold: 1'));
    const result = await parley(['validate', '.', '--format', 'json'], suite, { GITHUB_ACTIONS: 'true' });
    expect(result.code).toBe(2);
    const parsed = JSON.parse(result.stdout) as { valid: boolean; problems: Array<{ file: string; line: number; column: number; message: string }> };
    expect(parsed.valid).toBe(false);
    expect(parsed.problems[0]).toMatchObject({ file: 'scenarios/spa_price_question_sw.yaml', column: 5 });
    expect(result.stderr).toMatch(/^error: scenarios\/spa_price_question_sw\.yaml:\d+:5: /m);
  });
});

describe('what the CLI says', () => {
  it('never refers a user to the product specification (the built CLI, comments stripped)', () => {
    const bundle = join(REPO_ROOT, 'apps/cli/dist/bundle');
    const files = [join(bundle, 'parley.js'), ...readdirSync(join(bundle, 'chunks')).filter((name) => name.endsWith('.js')).map((name) => join(bundle, 'chunks', name))];
    // SQL comments of the store's migrations are for the people who read the code, not output.
    const withoutSqlComments = (text: string) => text.replace(/^\s*--.*$/gm, '');
    for (const file of files) expect(withoutSqlComments(readFileSync(file, 'utf8')), file).not.toMatch(/(?<![A-Z_])S[P]EC(?![A-Z_])/);
  });
});
