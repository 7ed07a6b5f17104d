import { Command, CommanderError } from 'commander';
import { isConfigError, systemClock, systemRandom } from '@parley/core';
import { EXIT_CONFIG_ERROR, EXIT_INTERNAL_ERROR, EXIT_OK } from '@parley/gate';
import { onStoreNotice } from '@parley/store';
import { register as registerCache } from './commands/cache.js';
import { register as registerCalibrate } from './commands/calibrate.js';
import { register as registerCanary } from './commands/canary.js';
import { register as registerCompare } from './commands/compare.js';
import { register as registerCost } from './commands/cost.js';
import { register as registerExport } from './commands/export.js';
import { register as registerGenerate } from './commands/generate.js';
import { register as registerInit } from './commands/init.js';
import { register as registerMergeReports } from './commands/merge-reports.js';
import { register as registerMonitor } from './commands/monitor.js';
import { register as registerPromote } from './commands/promote.js';
import { register as registerRecordings } from './commands/recordings.js';
import { register as registerRun } from './commands/run.js';
import { register as registerRuns } from './commands/runs.js';
import { register as registerSchema } from './commands/schema.js';
import { register as registerShowReport } from './commands/show-report.js';
import { register as registerStore } from './commands/store.js';
import { register as registerTui } from './commands/tui.js';
import { register as registerValidate } from './commands/validate.js';
import { printIssues } from './output/config-error-output.js';
import { processOutput } from './output/output.js';
import { addHelpFooters, allCommands } from './program/command-help.js';
import { parleyIn, type CommandContext, type ProgramContext, type RegisterCommand } from './program/command-context.js';
import { describeInternalError } from './program/internal-error.js';
import { lazyParleyCommand } from './program/parley-command.js';
import { PARLEY_PACKAGE_VERSION } from './program/package-info.js';
import { userErrorOf } from './program/user-error.js';
import { renderIssueAnnotations } from './reporters/github-annotations.js';

// bin/parley.js takes it from the bundle for errors that escape every handler (uncaught exceptions).
export { describeInternalError };

/**
 * Every command, in the order `parley --help` lists them. A new command is a file in commands/ that
 * exports `register` (see RegisterCommand), and one entry here. The registrations (options and
 * help text) are all in the bundle's entry file, so `parley --help` reads one file instead of ~30
 * small ones (each file Node loads costs its own resolving, reading and linking); what a command
 * does is imported when it runs, inside its action, so only that command's libraries load.
 */
const COMMANDS: ReadonlyArray<readonly [name: string, register: RegisterCommand]> = [
  ['run', registerRun],
  ['validate', registerValidate],
  ['compare', registerCompare],
  ['merge-reports', registerMergeReports],
  ['show-report', registerShowReport],
  ['promote', registerPromote],
  ['generate', registerGenerate],
  ['export', registerExport],
  ['monitor', registerMonitor],
  ['recordings', registerRecordings],
  ['cache', registerCache],
  ['calibrate', registerCalibrate],
  ['tui', registerTui],
  ['schema', registerSchema],
  ['init', registerInit],
  ['canary', registerCanary],
  ['cost', registerCost],
  ['runs', registerRuns],
  ['store', registerStore],
];

/**
 * The commands `argv` needs registered: the one it names (the first word that is not an option;
 * the only global option, --no-color, takes no value), none for `--version`, or all of them
 * (help, a bare `parley` and an unknown word, whose "did you mean" needs every name).
 */
export function commandsFor(argv: readonly string[]): RegisterCommand[] {
  const word = argv.find((arg) => !arg.startsWith('-'));
  // `parley --version` prints the version and needs no command.
  if (word === undefined && (argv.includes('--version') || argv.includes('-V')) && !argv.includes('--help') && !argv.includes('-h')) return [];
  const named = COMMANDS.filter(([name]) => name === word);
  return (named.length > 0 ? named : COMMANDS).map(([, register]) => register);
}

/**
 * The `parley` command: parses arguments, calls the libraries, prints. Returns the exit code
 * instead of exiting so tests can run it in-process.
 */
export async function main(argv: string[], overrides: Partial<CommandContext> & { bin?: string } = {}): Promise<number> {
  const env = overrides.env ?? process.env;
  const context: CommandContext = {
    cwd: overrides.cwd ?? process.cwd(),
    env: overrides.env ?? process.env,
    output: overrides.output ?? processOutput(overrides.env ?? process.env),
    clock: overrides.clock ?? systemClock,
    random: overrides.random ?? systemRandom(),
    ...(overrides.signal ? { signal: overrides.signal } : {}),
    githubAnnotations: overrides.githubAnnotations ?? (overrides.env ?? process.env).GITHUB_ACTIONS === 'true',
    parleyCommand: overrides.parleyCommand ?? lazyParleyCommand(overrides.bin, env),
  };
  let exitCode = 0;
  // What the store's location chose on its own (PARLEY_DATABASE_URL set but empty): one line on stderr.
  const stopStoreNotices = onStoreNotice((notice) => context.output.err(`warning: ${notice}\n`));
  try {
    const program = buildProgram(context, (code) => {
      exitCode = code;
    }, commandsFor(argv));
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
  } finally {
    stopStoreNotices();
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
  addHelpFooters(program, () => parleyIn(commandContext));
  return program;
}
