import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { counted } from '../output/counted.js';
import { ConfigError, isConfigError } from '@parley/core';
import type { RunToExport } from '@parley/telemetry';
import { parleyIn, type CommandContext } from '../program/command-context.js';
import { EXIT_SIGINT, EXIT_SIGTERM, interruptedExit } from '../program/interrupted-exit.js';
import { paint } from '../output/output.js';

export interface ExportFlags {
  to: string;
  suite?: string;
  dataset?: string;
  flush?: boolean;
}

const PARLEY_VERSION = '0.1.0';

/**
 * `parley export`: exit 0 when everything was sent, 2 on bad input or refused keys, 1 when the
 * destination could not take it after retries.
 */
export async function exportCommand(runId: string | undefined, flags: ExportFlags, context: CommandContext): Promise<number> {
  if (flags.flush) {
    if (runId !== undefined || flags.dataset !== undefined || flags.suite !== undefined) throw new ConfigError('--flush sends the pending exports as they were asked: drop the run id, --dataset and --suite');
    return flushExports(await exportDestination(flags.to, context.env), context);
  }
  if (runId === undefined) throw new ConfigError('parley export needs a run id or a report folder (or --flush to send the pending exports)');
  const destination = await exportDestination(flags.to, context.env, flags.dataset);
  const telemetry = await import('@parley/telemetry');
  const asked: PendingExport = { run: existsSync(resolve(context.cwd, runId)) ? resolve(context.cwd, runId) : runId, ...(flags.suite !== undefined ? { suite: resolve(context.cwd, flags.suite) } : {}), ...(flags.dataset !== undefined ? { dataset: flags.dataset } : {}) };
  const run = await telemetry.loadRunForExport(runId, { cwd: context.cwd, env: context.env, parleyCommand: () => parleyIn(context), ...(flags.suite !== undefined ? { suite: flags.suite } : {}) });
  return sendRun(run, destination, context, asked);
}

/** What the outbox keeps of an export to send it again: the run (id or absolute report folder), the suite and the dataset. */
interface PendingExport {
  run: string;
  suite?: string;
  dataset?: string;
}

type Destination = Awaited<ReturnType<typeof exportDestination>>;

/** The outbox name of a destination: its URL without credentials (headers and keys come from the environment each time). */
function outboxDestination(destination: Destination): string {
  const url = destination.kind === 'langfuse' ? destination.langfuse.baseUrl : destination.otlp.url;
  return `${destination.kind} ${url.replace(/\/\/[^/@]*@/, '//')}`;
}

/**
 * `parley export --flush --to DEST` (and after a `run --export` that delivered): sends every export
 * the outbox holds for this destination except `skip`, oldest first. Exit 0 when none is left, 1
 * when one could not be delivered (it stays pending).
 */
export async function flushExports(destination: Destination, context: CommandContext, skip?: string): Promise<number> {
  const { abandonedHere, defaultStorePath, openOutbox, storeExists } = await import('@parley/store');
  const storePath = defaultStorePath(context.cwd);
  if (!storeExists(storePath)) {
    context.output.out('no pending exports\n');
    return 0;
  }
  const outbox = openOutbox(storePath);
  const key = outboxDestination(destination);
  // Claimed before sending: a flush or `run --export` running at the same time (on a team store,
  // on another machine) sends the others, never these. A sender killed here leaves its claims to
  // the next flush at once on this machine, else after the lease.
  const holder = await exportSender();
  const { pending, elsewhere } = (() => {
    try {
      const waiting = outbox.pending('run_export', key).filter((item) => item.item_key !== skip).length;
      const claimed = outbox.claimPending('run_export', key, holder, context.clock.now().getTime(), EXPORT_SENDING_LEASE_MS, abandonedHere).filter((item) => item.item_key !== skip);
      return { pending: claimed, elsewhere: Math.max(0, waiting - claimed.length) };
    } finally {
      outbox.close();
    }
  })();
  if (skip === undefined) {
    const others = elsewhere > 0 ? ` (${elsewhere} more being sent by another parley process)` : '';
    context.output.out(`${pending.length} pending export${pending.length === 1 ? '' : 's'} to ${key}${others}\n`);
  }
  const telemetry = await import('@parley/telemetry');
  let failed = 0;
  for (const item of pending) {
    // Ctrl-C / SIGTERM: what is not sent yet stays pending, for the next flush.
    if (context.signal?.aborted) return interruptedExit(context.signal);
    const asked = JSON.parse(item.payload_json) as PendingExport;
    let run: RunToExport;
    try {
      run = await telemetry.loadRunForExport(asked.run, { cwd: context.cwd, env: context.env, parleyCommand: () => parleyIn(context), ...(asked.suite !== undefined ? { suite: asked.suite } : {}) });
    } catch (error) {
      // A run that cannot be read any more (removed, its reports deleted) stays pending, said with why.
      if (!(error instanceof Error) || !isConfigError(error)) throw error;
      await markExport(storePath, key, item.item_key, error.message, context);
      context.output.err(`${paint(context.output.color).status('error', 'export failed')}: run ${item.item_key}: ${error.message}\n`);
      failed += 1;
      continue;
    }
    const withDataset = destination.kind === 'langfuse' ? { ...destination, ...(asked.dataset !== undefined ? { dataset: asked.dataset } : {}) } : destination;
    const sent = await sendRun(run, withDataset, context, asked);
    if (sent === EXIT_SIGINT || sent === EXIT_SIGTERM) return sent;
    if (sent !== 0) failed += 1;
  }
  return failed === 0 ? 0 : 1;
}

/** How long a process may take to send the exports it claimed before another process sends them instead. */
const EXPORT_SENDING_LEASE_MS = 10 * 60_000;

let sender: string | undefined;
/** This process's name on the outbox items it claims (one per process, see claimHolder). */
async function exportSender(): Promise<string> {
  sender ??= (await import('@parley/store')).claimHolder();
  return sender;
}


/** Marks an outbox export delivered (error undefined) or failed. */
async function markExport(storePath: string, destination: string, runId: string, error: string | undefined, context: CommandContext): Promise<void> {
  const { openOutbox } = await import('@parley/store');
  const outbox = openOutbox(storePath);
  try {
    const at = context.clock.now().toISOString();
    if (error === undefined) outbox.delivered('run_export', destination, runId, at);
    else outbox.failed('run_export', destination, [runId], error, at);
  } finally {
    outbox.close();
  }
}

/**
 * Sends a loaded run and prints one line; shared with `parley run --export`. The export is kept in
 * the outbox of `.parley/parley.db` first and marked delivered only when the destination took it,
 * so one that fails (or a process killed while sending) is sent by the next `run --export` to
 * that destination or by `parley export --flush`. Returns 0 when it was delivered, 1 when the
 * destination did not take it, 130 / 143 when Ctrl-C / SIGTERM stopped the sending (the request
 * in flight is aborted; the export stays pending).
 */
export async function sendRun(run: RunToExport, destination: Destination, context: CommandContext, asked: PendingExport): Promise<number> {
  const { defaultStorePath, openOutbox } = await import('@parley/store');
  const storePath = defaultStorePath(context.cwd);
  const key = outboxDestination(destination);
  const outbox = openOutbox(storePath);
  try {
    // Added claimed by this process, which sends it now: a flush meanwhile leaves it alone.
    const now = context.clock.now();
    outbox.add([{ kind: 'run_export', destination: key, item_key: run.report.run_id, suite: run.report.suite, payload_json: JSON.stringify(asked), created_at: now.toISOString() }], {
      sender: await exportSender(),
      untilMs: now.getTime() + EXPORT_SENDING_LEASE_MS,
    });
  } finally {
    outbox.close();
  }
  const failure = await sendLoadedRun(run, destination, context);
  await markExport(storePath, key, run.report.run_id, failure, context);
  if (failure !== undefined && context.signal?.aborted) return interruptedExit(context.signal);
  return failure === undefined ? 0 : 1;
}

/** Sends the run and prints what was sent; returns why the destination did not take it, or undefined. */
async function sendLoadedRun(run: RunToExport, destination: Destination, context: CommandContext): Promise<string | undefined> {
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
      ...(context.signal ? { signal: context.signal } : {}),
    });
    const scores = destination.kind === 'langfuse' ? ` and ${counted(summary.scores, 'score')}` : '';
    context.output.out(`exported run ${run.report.run_id}: ${counted(summary.traces, 'trace')} (${counted(summary.spans, 'span')})${scores} to ${summary.destination}\n`);
    if (summary.dataset) {
      const { dataset } = summary;
      context.output.out(`dataset ${dataset.dataset}: ${counted(dataset.items, 'item')}; dataset runs ${dataset.runs.join(', ')} (${counted(dataset.linked, 'item')} linked to their traces now)\n`);
    }
    return undefined;
  } catch (error) {
    if (error instanceof telemetry.ExportError && context.signal?.aborted) {
      context.output.err(`${colors.status('error', 'export stopped')}: ${error.message}\n`);
      context.output.err(`the export stays pending: \`${parleyIn(context)} export --flush --to ...\`, or the next \`${parleyIn(context)} run --export\` to this destination, sends it\n`);
      return error.message;
    }
    if (error instanceof telemetry.ExportError) {
      context.output.err(`${colors.status('error', 'export failed')}: ${error.message}\n`);
      context.output.err(`the export stays pending: the next \`${parleyIn(context)} run --export\` to this destination, or \`${parleyIn(context)} export --flush --to ...\`, sends it\n`);
      return error.message;
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
