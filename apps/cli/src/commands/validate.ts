import type { Command } from 'commander';
import type { ProgramContext } from '../program/command-context.js';
import { formatOption } from '../program/flags.js';

export interface ValidateFlags {
  format?: string;
  /** Warnings are errors (exit 2), as they fail a `parley run --strict`. */
  strict?: boolean;
}

export function register(program: Command, context: ProgramContext): void {
  program
    .command('validate')
    .description('check a suite, or one scenario file in its suite, without running it (exit 2 with file:line:column on problems)')
    .argument('[suite]', 'suite folder, parley.yaml, or one scenario file (checked alone, with its suite)', '.')
    .addOption(formatOption())
    .option('--strict', 'treat warnings as errors (exit 2), as `parley run --strict` does')
    .action(async (suite: string, flags: ValidateFlags) => {
      // The check lives in its own module, loaded when the command runs: it imports by name only
      // what validating needs, so the bundle gives it those parts of the libraries, not every
      // export of @parley/runner (a dynamic import keeps all of a module's exports).
      const { validateCommand } = await import('./validate-suite.js');
      context.setExitCode(validateCommand(suite, flags, context));
    });
}

