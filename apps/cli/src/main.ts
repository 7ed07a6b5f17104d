import { Command, CommanderError } from 'commander';
import { isConfigError, systemClock, systemRandom } from '@parley/core';
import { EXIT_CONFIG_ERROR, EXIT_INTERNAL_ERROR, EXIT_OK } from '@parley/gate';
import { printIssues } from './output/config-error-output.js';
import { processOutput } from './output/output.js';
import { addHelpFooters, allCommands } from './program/command-help.js';
import type { CommandContext, ProgramContext, RegisterCommand } from './program/command-context.js';
import { describeInternalError } from './program/internal-error.js';
import { PARLEY_PACKAGE_VERSION } from './program/package-info.js';
import { userErrorOf } from './program/user-error.js';
import { renderIssueAnnotations } from './reporters/github-annotations.js';

// bin/parley.js takes it from the bundle for errors that escape every handler (uncaught exceptions).
export { describeInternalError };

/**
 * Every command, in the order `parley --help` lists them, each loaded when it is needed. A new
 * command is a file in commands/ that exports `register` (see RegisterCommand), and one entry here.
 * `parley <command> …` loads only that command's module; help, a bare `parley` and an unknown word
 * (whose "did you mean" needs every name) load them all. Start-up is what short commands wait for.
 */
const COMMANDS: ReadonlyArray<readonly [name: string, load: () => Promise<{ register: RegisterCommand }>]> = [
  ['run', () => import('./commands/run.js')],
  ['validate', () => import('./commands/validate.js')],
  ['compare', () => import('./commands/compare.js')],
  ['merge-reports', () => import('./commands/merge-reports.js')],
  ['show-report', () => import('./commands/show-report.js')],
  ['promote', () => import('./commands/promote.js')],
  ['generate', () => import('./commands/generate.js')],
  ['export', () => import('./commands/export.js')],
  ['monitor', () => import('./commands/monitor.js')],
  ['recordings', () => import('./commands/recordings.js')],
  ['cache', () => import('./commands/cache.js')],
  ['calibrate', () => import('./commands/calibrate.js')],
  ['tui', () => import('./commands/tui.js')],
  ['schema', () => import('./commands/schema.js')],
  ['init', () => import('./commands/init.js')],
  ['canary', () => import('./commands/canary.js')],
  ['cost', () => import('./commands/cost.js')],
  ['runs', () => import('./commands/runs.js')],
  ['store', () => import('./commands/store.js')],
];

/**
 * The commands `argv` needs registered: the one it names (the first word that is not an option;
 * the only global option, --no-color, takes no value), none for `--version`, or all of them.
 */
export async function commandsFor(argv: readonly string[]): Promise<RegisterCommand[]> {
  const word = argv.find((arg) => !arg.startsWith('-'));
  // `parley --version` prints the version and needs no command.
  if (word === undefined && (argv.includes('--version') || argv.includes('-V')) && !argv.includes('--help') && !argv.includes('-h')) return [];
  const named = COMMANDS.filter(([name]) => name === word);
  const chosen = named.length > 0 ? named : COMMANDS;
  return Promise.all(chosen.map(async ([, load]) => (await load()).register));
}

/**
 * The `parley` command: parses arguments, calls the libraries, prints. Returns the exit code
 * instead of exiting so tests can run it in-process.
 */
export async function main(argv: string[], overrides: Partial<CommandContext> = {}): Promise<number> {
  const context: CommandContext = {
    cwd: overrides.cwd ?? process.cwd(),
    env: overrides.env ?? process.env,
    output: overrides.output ?? processOutput(overrides.env ?? process.env),
    clock: overrides.clock ?? systemClock,
    random: overrides.random ?? systemRandom(),
    ...(overrides.signal ? { signal: overrides.signal } : {}),
    githubAnnotations: overrides.githubAnnotations ?? (overrides.env ?? process.env).GITHUB_ACTIONS === 'true',
  };
  let exitCode = 0;
  try {
    const program = buildProgram(context, (code) => {
      exitCode = code;
    }, await commandsFor(argv));
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with code 0; every usage error is a configuration error.
      return error.exitCode === 0 ? EXIT_OK : EXIT_CONFIG_ERROR;
    }
    // A path that cannot be used, a lock another machine holds: the user's to fix (exit 2, one line).
    const userError = userErrorOf(error, context.cwd);
    if (userError) {
      printIssues(context.output, userError.issues, context.cwd);
      return EXIT_CONFIG_ERROR;
    }
    if (isConfigError(error)) {
      printIssues(context.output, error.issues, context.cwd);
      if (context.githubAnnotations) {
        const workspace = context.env.GITHUB_WORKSPACE;
        context.output.out(renderIssueAnnotations(error.issues, { cwd: context.cwd, ...(workspace ? { workspace } : {}) }));
      }
      return EXIT_CONFIG_ERROR;
    }
    // Anything else is ours, not the suite's: the run could not be evaluated (exit 2, never 1).
    context.output.err(describeInternalError(error, context.env));
    return EXIT_INTERNAL_ERROR;
  }
}

/** The program with the given commands (`commandsFor`) registered. */
export function buildProgram(commandContext: CommandContext, setExitCode: (code: number) => void, commands: readonly RegisterCommand[]): Command {
  // The same object, not a copy: what a command changes in the context (colour off, annotations
  // on) must reach main's error handling.
  const context: ProgramContext = Object.assign(commandContext, { setExitCode });
  const program = new Command('parley')
    .description('Test conversational AI agents with multi-turn golden conversations.')
    .version(PARLEY_PACKAGE_VERSION)
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (text) => context.output.out(text), writeErr: (text) => context.output.err(text) })
    .option('--no-color', 'no colour codes in the output (also NO_COLOR=1 or FORCE_COLOR=0)')
    // Global options apply to every command: `parley --no-color run` and `parley run --no-color` alike.
    .hook('preAction', (command) => {
      if (command.opts<{ color?: boolean }>().color === false) context.output = { ...context.output, color: false };
    });
  for (const register of commands) register(program, context);
  for (const command of [program, ...allCommands(program)]) command.exitOverride();
  addHelpFooters(program);
  return program;
}
