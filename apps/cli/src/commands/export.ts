import type { Command } from 'commander';
import type { ProgramContext } from '../program/command-context.js';
import type { ExportFlags } from './export-command.js';

/** Adds `parley export RUN_ID --to langfuse|otlp=URL`. */
export function register(program: Command, context: ProgramContext): void {
  program
    .command('export')
    .description('send a finished run to Langfuse (traces and scores) or to an OTLP/HTTP collector (traces)')
    .argument('[run_id]', 'run id (or a unique prefix), or a report folder')
    .requiredOption('--to <destination>', 'langfuse (LANGFUSE_HOST, LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY), otlp=URL (a collector\'s base URL or its traces URL) or otlp (OTEL_EXPORTER_OTLP_*)')
    .option('--suite <dir>', "the suite whose redactor masks the content (default: the run's own suite)")
    .option('--dataset <name>', 'Langfuse: also record the run as an experiment on this dataset (one item per scenario, one dataset run per agent)')
    .option('--flush', 'send only the exports to this destination that earlier exports or `run --export` could not deliver (the outbox)')
    .action(async (runId: string | undefined, flags: ExportFlags) => {
      // The export lives in its own module, loaded when the command runs: every command registers
      // this one (main.ts), and `run --export` imports the sending from there.
      const { exportCommand } = await import('./export-command.js');
      context.setExitCode(await exportCommand(runId, flags, context));
    })
    .exitOverride();
}
