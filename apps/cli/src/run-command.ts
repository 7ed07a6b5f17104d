import { judgeSummary } from '@parley/reports';
import type { CommandContext } from './command-context.js';
import { exportDestination, sendRun } from './export-command.js';
import { gateNotes } from './gate-notes.js';
import { paint } from './output.js';
import { runProgress } from './run-progress.js';
import { renderRunSummary } from './run-summary.js';
import { renderComparison } from './comparison-table.js';
import { runOptionsFromFlags, type RunFlags } from './run-flags.js';

export type { RunFlags } from './run-flags.js';

export async function runCommand(suiteArgument: string | undefined, flags: RunFlags, context: CommandContext): Promise<number> {
  const options = runOptionsFromFlags(flags);
  // Checked before the run: missing Langfuse keys should not cost a run first.
  const destination = flags.export !== undefined ? await exportDestination(flags.export, context.env) : undefined;
  const { runSuite } = await import('@parley/runner');
  const progress = runProgress(context.output);
  try {
    const outcome = await runSuite(
      {
        suitePath: suiteArgument ?? '.',
        ...options,
        ...(context.env.GITHUB_STEP_SUMMARY ? { githubStepSummary: context.env.GITHUB_STEP_SUMMARY } : {}),
        ...(context.signal ? { signal: context.signal } : {}),
      },
      { cwd: context.cwd, env: context.env, clock: context.clock, random: context.random, listeners: [progress.listener] },
    );
    context.output.out(
      renderRunSummary(outcome.report, paint(context.output.color), displayPath(outcome.out_dir, context.cwd), context.output.columns),
    );
    if (outcome.report.comparison) context.output.out(renderComparison(outcome.report.comparison, paint(context.output.color), context.output.columns));
    const notes = gateNotes(outcome.report, outcome.exported_baseline && { file: displayPath(outcome.exported_baseline.file, context.cwd), entries: outcome.exported_baseline.entries });
    const judge = judgeSummary(outcome.report.judge);
    if (judge !== null) context.output.out(`${judge}\n`);
    if (notes.err) context.output.err(notes.err);
    if (notes.out) context.output.out(notes.out);
    if (outcome.interrupted) context.output.err('interrupted: finished results are kept in the reports and .parley/parley.db\n');
    if (destination !== undefined && !outcome.interrupted) {
      const { loadRunForExport } = await import('@parley/telemetry');
      const run = await loadRunForExport(outcome.run_id, { cwd: context.cwd, env: context.env, suite: suiteArgument ?? '.' });
      const exported = await sendRun(run, destination, context);
      // An unreachable backend does not change the gate's verdict; it is reported above.
      if (exported !== 0) context.output.err('the run\'s own result stands: its exit code is the gate\'s\n');
    }
    return outcome.exit_code;
  } finally {
    progress.stop();
  }
}

function displayPath(path: string, cwd: string): string {
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}
