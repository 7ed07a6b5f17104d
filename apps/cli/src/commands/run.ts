import type { Command } from 'commander';
import type { ProgramContext } from '../program/command-context.js';
import { addReporterFlags, addRunFlags, type RunFlags } from './run-flags.js';

export function register(program: Command, context: ProgramContext): void {
  addReporterFlags(
    addRunFlags(
      program
        .command('run')
        .description('run a suite and gate on its results (exit 0 pass, 1 fail, 2 configuration error)')
        .argument('[suite]', 'suite folder or parley.yaml', '.'),
    )
      .option('--last-failed', 'only the cases that failed or errored in the suite\'s latest finished run')
      .option('--list', 'print the selected cases, one per line (--format json: a JSON array), and run nothing'),
  ).action(async (suite: string, flags: RunFlags) => {
    // The run lives in its own module, loaded when the command runs (every `parley --help`
    // registers this one): it imports by name what a run uses, so the bundle gives it those parts
    // of the libraries and not every export of @parley/runner (a dynamic import of a library's
    // index keeps all of the index's exports, and what they import).
    const { runCommand } = await import('./run-command.js');
    context.setExitCode(await runCommand(suite, flags, context));
  });
}
