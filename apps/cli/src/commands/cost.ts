import { Option, type Command } from 'commander';
import type { ProgramContext } from '../program/command-context.js';
import type { CostFlags } from './cost-command.js';

/** Adds `parley cost` to the program. */
export function register(program: Command, context: ProgramContext): void {
  program
    .command('cost')
    .description('what runs, monitor and calibrate judge spent on models, by source, suite, model and month (from .parley/parley.db and report folders)')
    .argument('[reports...]', 'report folders (or report.json files) of runs not in this store, e.g. CI shard artifacts')
    .option('--since <window>', 'runs started in this window: 30d, 12w, or a date', '30d')
    .addOption(new Option('--format <format>', 'text or json').choices(['text', 'json']))
    .action(async (reports: string[], flags: CostFlags) => context.setExitCode(await (await import('./cost-command.js')).costCommand(reports, flags, context)))
    .exitOverride();
}
