import { Command, CommanderError } from 'commander';
import { isConfigError, systemClock, systemRandom } from '@parley/core';
import { EXIT_CONFIG_ERROR, EXIT_INTERNAL_ERROR, EXIT_OK } from '@parley/gate';
import * as cache from './commands/cache.js';
import * as calibrate from './commands/calibrate.js';
import * as canary from './commands/canary.js';
import * as compare from './commands/compare.js';
import * as cost from './commands/cost.js';
import * as exportRun from './commands/export.js';
import * as generate from './commands/generate.js';
import * as init from './commands/init.js';
import * as mergeReports from './commands/merge-reports.js';
import * as monitor from './commands/monitor.js';
import * as promote from './commands/promote.js';
import * as recordings from './commands/recordings.js';
import * as run from './commands/run.js';
import * as runs from './commands/runs.js';
import * as schema from './commands/schema.js';
import * as showReport from './commands/show-report.js';
import * as tui from './commands/tui.js';
import * as validate from './commands/validate.js';
import { printIssues } from './output/config-error-output.js';
import { processOutput } from './output/output.js';
import { addHelpFooters, allCommands } from './program/command-help.js';
import type { CommandContext, ProgramContext, RegisterCommand } from './program/command-context.js';
import { describeInternalError } from './program/internal-error.js';
import { PARLEY_PACKAGE_VERSION } from './program/package-info.js';
import { userErrorOf } from './program/user-error.js';
import { renderIssueAnnotations } from './reporters/github-annotations.js';


/**
 * Every command, in the order `parley --help` lists them. A new command is a file in commands/
 * that exports `register` (see RegisterCommand), and one entry here.
 */
const COMMANDS: readonly RegisterCommand[] = [
  run.register,
  validate.register,
  compare.register,
  mergeReports.register,
  showReport.register,
  promote.register,
  generate.register,
  exportRun.register,
  monitor.register,
  recordings.register,
  cache.register,
  calibrate.register,
  tui.register,
  schema.register,
  init.register,
  canary.register,
  cost.register,
  runs.register,
];

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
  const program = buildProgram(context, (code) => {
    exitCode = code;
  });
  try {
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

export function buildProgram(commandContext: CommandContext, setExitCode: (code: number) => void): Command {
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
  for (const register of COMMANDS) register(program, context);
  for (const command of [program, ...allCommands(program)]) command.exitOverride();
  addHelpFooters(program);
  return program;
}
