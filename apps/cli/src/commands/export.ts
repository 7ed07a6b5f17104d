import { ConfigError } from '@parley/core';
import type { RunToExport } from '@parley/telemetry';
import type { Command } from 'commander';
import type { CommandContext, ProgramContext } from '../program/command-context.js';
import { paint } from '../output/output.js';

export interface ExportFlags {
  to: string;
  suite?: string;
  dataset?: string;
}

const PARLEY_VERSION = '0.1.0';

/** Adds `parley export RUN_ID --to langfuse|otlp=URL`. */
export function register(program: Command, context: ProgramContext): void {
  program
    .command('export')
    .description('send a finished run to Langfuse (traces and scores) or to an OTLP/HTTP collector (traces)')
    .argument('<run_id>', 'run id (or a unique prefix), or a report folder')
    .requiredOption('--to <destination>', 'langfuse (LANGFUSE_HOST, LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY), otlp=URL (a collector\'s base URL or its traces URL) or otlp (OTEL_EXPORTER_OTLP_*)')
    .option('--suite <dir>', "the suite whose redactor masks the content (default: the run's own suite)")
    .option('--dataset <name>', 'Langfuse: also record the run as an experiment on this dataset (one item per scenario, one dataset run per agent)')
    .action(async (runId: string, flags: ExportFlags) => context.setExitCode(await exportCommand(runId, flags, context)))
    .exitOverride();
}

/**
 * `parley export`: exit 0 when everything was sent, 2 on bad input or refused keys, 1 when the
 * destination could not take it after retries.
 */
export async function exportCommand(runId: string, flags: ExportFlags, context: CommandContext): Promise<number> {
  const destination = await exportDestination(flags.to, context.env, flags.dataset);
  const telemetry = await import('@parley/telemetry');
  const run = await telemetry.loadRunForExport(runId, { cwd: context.cwd, env: context.env, ...(flags.suite !== undefined ? { suite: flags.suite } : {}) });
  return sendRun(run, destination, context);
}

/** Sends a loaded run and prints one line; shared with `parley run --export`. */
export async function sendRun(
  run: RunToExport,
  destination: Awaited<ReturnType<typeof exportDestination>>,
  context: CommandContext,
): Promise<number> {
  const telemetry = await import('@parley/telemetry');
  const colors = paint(context.output.color);
  for (const note of run.notes) context.output.err(`${colors.dim(`note: ${note}`)}\n`);
  try {
    const summary = await telemetry.exportRun({
      report: run.report,
      tenants: run.tenants,
      promptVersions: run.promptVersions,
      redactor: run.redactor,
      destination,
      ...(destination.kind === 'langfuse' && destination.dataset !== undefined ? { dataset: { name: destination.dataset, ...(run.scenarios ? { scenarios: run.scenarios } : {}) } } : {}),
      parleyVersion: PARLEY_VERSION,
    });
    const scores = destination.kind === 'langfuse' ? ` and ${summary.scores} scores` : '';
    context.output.out(`exported run ${run.report.run_id}: ${summary.traces} traces (${summary.spans} spans)${scores} to ${summary.destination}\n`);
    if (summary.dataset) {
      const { dataset } = summary;
      context.output.out(`dataset ${dataset.dataset}: ${dataset.items} items; dataset runs ${dataset.runs.join(', ')} (${dataset.linked} items linked to their traces now)\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof telemetry.ExportError) {
      context.output.err(`${colors.status('error', 'export failed')}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** `--to langfuse [--dataset NAME]` or `--to otlp=URL`. */
export async function exportDestination(to: string, env: NodeJS.ProcessEnv, dataset?: string) {
  const telemetry = await import('@parley/telemetry');
  if (dataset !== undefined && to !== 'langfuse') throw new ConfigError('--dataset records an experiment in Langfuse: use it with langfuse as the destination');
  if (dataset !== undefined && dataset.trim() === '') throw new ConfigError('--dataset needs a dataset name');
  if (to === 'langfuse') {
    const { langfuseFromEnv } = await import('@parley/langfuse');
    return { kind: 'langfuse' as const, langfuse: langfuseFromEnv(env), ...(dataset !== undefined ? { dataset } : {}) };
  }
  if (to === 'otlp' || to.startsWith('otlp=')) {
    // The URL and the OTEL_EXPORTER_OTLP_* variables resolve as the OTLP exporter rules say (docs/telemetry.md).
    return { kind: 'otlp' as const, otlp: telemetry.otlpSettings(to === 'otlp' ? undefined : to.slice('otlp='.length), env) };
  }
  throw new ConfigError(`--to must be langfuse, otlp or otlp=URL, got "${to}"`);
}
