import { resolve } from 'node:path';
import { ConfigError, terminalSafe } from '@parley/core';
import { runSuite } from '@parley/runner';
import { gateNotes } from '../output/gate-notes.js';
import { runProgress } from '../output/run-progress.js';
import { parleyIn, type CommandContext } from '../program/command-context.js';
import { chooseReporters } from '../reporters/reporter-choice.js';
import { runOptionsFromFlags, type RunFlags } from './run-flags.js';

/** `parley run`: the run itself (run.ts registers the command and its flags). */
export async function runCommand(suiteArgument: string | undefined, flags: RunFlags, context: CommandContext): Promise<number> {
  const { reporters } = chooseReporters(flags, context);
  context.githubAnnotations = reporters.some((reporter) => reporter.name === 'github');
  const selected = await withLastFailed(suiteArgument ?? '.', runOptionsFromFlags(flags, parleyIn(context)), flags, context);
  if (selected === undefined) return 0;
  const options = selected;
  if (flags.list) return listCases(suiteArgument ?? '.', options, flags, context);
  // Checked before the run: missing Langfuse keys should not cost a run first.
  if (flags.dataset !== undefined && flags.export === undefined) throw new ConfigError('--dataset goes with --export langfuse');
  const exporting = flags.export === undefined ? undefined : await exportFor(flags.export, flags.dataset, context);
  const progress = await runProgress(context.output);
  const listeners = [progress.listener, ...reporters.flatMap((reporter) => (reporter.onEvent ? [reporter.onEvent.bind(reporter)] : []))];
  try {
    const outcome = await runSuite(
      {
        suitePath: suiteArgument ?? '.',
        ...options,
        ...(context.env.GITHUB_STEP_SUMMARY ? { githubStepSummary: context.env.GITHUB_STEP_SUMMARY } : {}),
        ...(context.signal ? { signal: context.signal } : {}),
      },
      { cwd: context.cwd, env: context.env, clock: context.clock, random: context.random, listeners, parleyCommand: () => parleyIn(context) },
    );
    progress.stop();
    // A warning is never lost: printed here when no chosen reporter shows warnings itself.
    const warnings = gateNotes(outcome.report).err;
    if (warnings && !reporters.some((reporter) => reporter.showsWarnings)) context.output.err(warnings);
    for (const reporter of reporters) await reporter.onRunEnd(outcome);
    // No --mode and no recordings: the run was live, which a reader of "OPENAI_API_KEY is not set" does not guess.
    // A resumed run keeps the mode it was started with (and was warned about then, if at all).
    if (options.mode === undefined && options.resume === undefined && outcome.report.mode === 'live') {
      context.output.err(`live run: the suite has no recordings yet, so this run was live (it calls the agents and models: keys, network, cost); record them once (${parleyIn(context)} run ${suiteArgument ?? '.'} --mode record), commit recordings/, and later runs replay offline with no keys (--mode live when live is meant)\n`);
    }
    if (outcome.interrupted) {
      // Named where the history went: a team store by its URL (password as ***), else the local file.
      const { defaultStorePath, storeShownFor } = await import('@parley/store');
      context.output.err(`interrupted: finished results are kept in the reports and ${storeShownFor(defaultStorePath(context.cwd), '.parley/parley.db')}\n`);
    }
    const pruned = outcome.history_pruned;
    if (pruned?.error !== undefined) context.output.err(`history: the prune after the run failed (${terminalSafe(pruned.error)}); the run is kept, and the next run tries again\n`);
    else if (pruned !== undefined && pruned.runs > 0) {
      const more = pruned.deferred > 0 ? `; ${pruned.deferred} more next time, or all now with ${parleyIn(context)} runs prune` : '';
      context.output.err(`history: removed ${pruned.runs} old run${pruned.runs === 1 ? '' : 's'} of this suite and ${pruned.folders} report folder${pruned.folders === 1 ? '' : 's'} (settings.history${more})\n`);
    }
    if (exporting !== undefined && !outcome.interrupted) {
      const { destination, flushExports, sendRun } = exporting;
      const { loadRunForExport } = await import('@parley/telemetry');
      const run = await loadRunForExport(outcome.run_id, { cwd: context.cwd, env: context.env, suite: suiteArgument ?? '.', parleyCommand: () => parleyIn(context) });
      const asked = { run: outcome.run_id, suite: resolve(context.cwd, suiteArgument ?? '.'), ...(destination.kind === 'langfuse' && destination.dataset !== undefined ? { dataset: destination.dataset } : {}) };
      const exported = await sendRun(run, destination, context, asked);
      // Ctrl-C / SIGTERM while sending: the run's results are kept, the export waits in the outbox, and the command exits as interrupted.
      if (exported === 130 || exported === 143) return exported;
      // An unreachable backend does not change the gate's verdict; it is reported above.
      if (exported !== 0) context.output.err('the run\'s own result stands: its exit code is the gate\'s\n');
      // The destination takes exports again: what earlier runs could not deliver to it goes now.
      else if ((await flushExports(destination, context, outcome.run_id)) !== 0) context.output.err(`some earlier exports are still pending (${parleyIn(context)} export --flush retries them)\n`);
    }
    return outcome.exit_code;
  } finally {
    progress.stop();
  }
}

/** `--export`: its module (loaded only for a run that exports) and where the run goes. */
async function exportFor(to: string, dataset: string | undefined, context: CommandContext) {
  const { exportDestination, flushExports, sendRun } = await import('./export-command.js');
  return { destination: await exportDestination(to, context.env, dataset), flushExports, sendRun };
}

type CliRunOptions = ReturnType<typeof runOptionsFromFlags> & { onlyCases?: string[] };

/**
 * `--last-failed`: the options narrowed to the cases that failed or errored in the suite's latest
 * finished run; undefined, with the reason on stderr, when there is nothing to run (exit 0).
 */
async function withLastFailed(suitePath: string, options: CliRunOptions, flags: RunFlags, context: CommandContext): Promise<CliRunOptions | undefined> {
  if (!flags.lastFailed) return options;
  const { lastFailedForRun } = await import('@parley/runner');
  const last = lastFailedForRun({ suitePath, ...options }, { cwd: context.cwd });
  if (last.kind === 'no-run') {
    context.output.err('--last-failed: this suite has no finished run in the history yet; nothing to run\n');
    return undefined;
  }
  if (last.kind === 'no-failures') {
    context.output.err(`--last-failed: nothing failed or errored in the latest finished run ${last.runId}; nothing to run\n`);
    return undefined;
  }
  // A comparison run's `<scenario>@<agent>` cases exist only when the same agents are compared:
  // without --agent, a re-run of such cases compares the agents that run compared.
  const agents = options.agents === undefined && last.caseIds.some((id) => id.includes('@')) ? last.agents : undefined;
  const against = agents === undefined ? '' : `, comparing ${agents.join(', ')} as it did`;
  context.output.err(`--last-failed: ${last.caseIds.length} case(s) that failed or errored in run ${last.runId}${against}\n`);
  return { ...options, onlyCases: last.caseIds, ...(agents === undefined ? {} : { agents }) };
}

/** `--list`: the plan phase only; prints the case ids and writes nothing. */
async function listCases(suitePath: string, options: CliRunOptions, flags: RunFlags, context: CommandContext): Promise<number> {
  const { listRunCases } = await import('@parley/runner');
  const ids = await listRunCases({ suitePath, ...options }, { cwd: context.cwd, env: context.env, clock: context.clock, random: context.random, listeners: [] });
  context.output.out(flags.format === 'json' ? `${JSON.stringify(ids)}\n` : ids.map((id) => `${id}\n`).join(''));
  return 0;
}
