import { Command, CommanderError, Option } from 'commander';
import { isConfigError, systemClock, systemRandom } from '@parley/core';
import { registerCalibrateCommand } from './calibrate-command.js';
import { registerCanaryCommand } from './canary-command.js';
import { registerCostCommand } from './cost-command.js';
import type { CommandContext } from './command-context.js';
import { compareCommand, type CompareFlags } from './compare-command.js';
import { printIssues } from './config-error-output.js';
import { renderIssueAnnotations } from './github-reporter.js';
import { describeInternalError } from './internal-error.js';
import { mergeReportsCommand, type MergeReportsFlags } from './merge-reports-command.js';
import { processOutput } from './output.js';
import { registerExportCommand } from './export-command.js';
import { registerMonitorCommand } from './monitor-command.js';
import { registerPromoteCommand } from './promote-command.js';
import { registerGenerateCommand } from './generate-command.js';
import { registerRecordingsCommand } from './recordings-command.js';
import { registerSchemaCommand } from './schema-command.js';
import { registerInitCommand } from './init-command.js';
import { PARLEY_PACKAGE_VERSION } from './package-info.js';
import { registerCacheCommand } from './cache-command.js';
import { runCommand, type RunFlags } from './run-command.js';
import { addReporterFlags, addRunFlags } from './run-flags.js';
import { registerTuiCommand } from './tui-command.js';
import { runsListCommand, runsShowCommand } from './runs-command.js';
import { validateCommand, type ValidateFlags } from './validate-command.js';
import { addHelpFooters } from './command-help.js';

export const EXIT_USAGE = 2;
/** An unexpected error: like a configuration error, the run could not be evaluated. */
export const EXIT_INTERNAL = 2;
export { describeInternalError } from './internal-error.js';

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
      return error.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    if (isConfigError(error)) {
      printIssues(context.output, error.issues, context.cwd);
      if (context.githubAnnotations) {
        const workspace = context.env.GITHUB_WORKSPACE;
        context.output.out(renderIssueAnnotations(error.issues, { cwd: context.cwd, ...(workspace ? { workspace } : {}) }));
      }
      return EXIT_USAGE;
    }
    // Anything else is ours, not the suite's: the run could not be evaluated (exit 2, never 1).
    context.output.err(describeInternalError(error, context.env));
    return EXIT_INTERNAL;
  }
}

export function buildProgram(context: CommandContext, setExitCode: (code: number) => void): Command {
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

  addReporterFlags(
    addRunFlags(
      program
        .command('run')
        .description('run a suite and gate on its results (exit 0 pass, 1 fail, 2 configuration error)')
        .argument('[suite]', 'suite folder or parley.yaml', '.'),
    ),
  ).action(async (suite: string, flags: RunFlags) => setExitCode(await runCommand(suite, flags, context)));

  program
    .command('validate')
    .description('check a suite without running it (exit 2 with file:line:column on problems)')
    .argument('[suite]', 'suite folder or parley.yaml', '.')
    .addOption(formatOption())
    .option('--strict', 'treat warnings as errors (exit 2), as `parley run --strict` does')
    .action(async (suite: string, flags: ValidateFlags) => setExitCode(await validateCommand(suite, flags, context)));

  program
    .command('compare')
    .description('compare two runs (stored run ids or report files) offline: deltas, regressions first, and with repeats a paired test')
    .argument('<before>', 'run id (or prefix), report.json, or a report folder')
    .argument('<after>', 'run id (or prefix), report.json, or a report folder')
    .addOption(new Option('--format <format>', 'text or json').choices(['text', 'json']))
    .option('--seed <n>', 'seed of the bootstrap and sampled permutations', '1')
    .option('--resamples <n>', 'bootstrap resamples', '10000')
    .option('--pairwise', "also judge each scenario's two transcripts side by side with the suite's judge, in both orders (live calls)")
    .option('--suite <dir>', 'suite whose judge.primary judges --pairwise (default: the suite the run was made from, else .)')
    .action(async (before: string, after: string, flags: CompareFlags) => setExitCode(await compareCommand(before, after, flags, context)));

  program
    .command('merge-reports')
    .description('merge the shard reports of one run into one report and one exit code (exit 2 for shards that do not belong together)')
    .argument('<dirs...>', 'shard report folders (or report.json files)')
    .option('--out <dir>', 'report folder (default .parley/runs/<run_id>)')
    .option('--strict', 'warnings, flaky results and missing baselines fail the merged run')
    .option('--export-baseline <file>', 'write a baseline from the merged run')
    .action(async (dirs: string[], flags: MergeReportsFlags) => setExitCode(await mergeReportsCommand(dirs, flags, context)));

  registerPromoteCommand(program, context, setExitCode);
  registerGenerateCommand(program, context, setExitCode);
  registerExportCommand(program, context, setExitCode);
  registerMonitorCommand(program, context, setExitCode);
  registerRecordingsCommand(program, context, setExitCode);
  registerCacheCommand(program, context, setExitCode);
  registerCalibrateCommand(program, context, setExitCode);
  registerTuiCommand(program, context, setExitCode);
  registerSchemaCommand(program, context, setExitCode);
  registerInitCommand(program, context, setExitCode);
  registerCanaryCommand(program, context, setExitCode);
  registerCostCommand(program, context, setExitCode);

  const runs = program.command('runs').description('the run history in .parley/parley.db');
  runs
    .command('list')
    .description('recent runs, newest first')
    .option('--limit <n>', 'how many', '20')
    .option('--suite <name>', 'only this suite')
    .addOption(formatOption())
    .action(async (flags: { limit?: string; suite?: string; format?: string }) => setExitCode(await runsListCommand(flags, context)));
  runs
    .command('show')
    .description('one run with its scenarios')
    .argument('<run_id>', 'run id or a unique prefix')
    .addOption(formatOption())
    .action(async (id: string, flags: { format?: string }) => setExitCode(await runsShowCommand(id, flags, context)));

  for (const command of [program, ...program.commands, ...runs.commands]) command.exitOverride();
  addHelpFooters(program);
  return program;
}

/** `--format text|json`: json prints one JSON document on stdout and nothing else there. */
function formatOption(): Option {
  return new Option('--format <format>', 'text, or json on stdout').choices(['text', 'json']);
}
