import { expectationLocator } from '@parley/config';
import { judgeSummary, renderJunit, renderSummaryMarkdown, reportJsonChunks, type ReportResult } from '@parley/reports';
import type { Command } from 'commander';
import type { CommandContext, ProgramContext } from '../program/command-context.js';
import { exportDestination, sendRun } from './export.js';
import { gateNotes } from '../output/gate-notes.js';
import { renderGithubAnnotations, type LocateExpectation } from '../reporters/github-annotations.js';
import { paint } from '../output/output.js';
import { chooseReporters } from '../reporters/reporter-choice.js';
import { runProgress } from '../output/run-progress.js';
import { renderRunSummary } from '../output/run-summary.js';
import { renderComparison } from '../output/comparison-table.js';
import { addReporterFlags, addRunFlags, runOptionsFromFlags, type RunFlags } from './run-flags.js';
import { wrapLines } from '../output/text-wrap.js';
import type { RunOutcome } from '@parley/runner';

export type { RunFlags } from './run-flags.js';

export function register(program: Command, context: ProgramContext): void {
  addReporterFlags(
    addRunFlags(
      program
        .command('run')
        .description('run a suite and gate on its results (exit 0 pass, 1 fail, 2 configuration error)')
        .argument('[suite]', 'suite folder or parley.yaml', '.'),
    ),
  ).action(async (suite: string, flags: RunFlags) => context.setExitCode(await runCommand(suite, flags, context)));
}

export async function runCommand(suiteArgument: string | undefined, flags: RunFlags, context: CommandContext): Promise<number> {
  const choice = chooseReporters(flags, context.env);
  context.githubAnnotations = choice.reporters.includes('github');
  const options = runOptionsFromFlags(flags);
  // Checked before the run: missing Langfuse keys should not cost a run first.
  const destination = flags.export !== undefined ? await exportDestination(flags.export, context.env) : undefined;
  const { runSuite } = await import('@parley/runner');
  const progress = runProgress(context.output);
  // A document reporter owns stdout; everything meant for people goes to stderr then.
  const people = choice.document === undefined ? context.output.out : context.output.err;
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
    progress.stop();
    const notes = gateNotes(outcome.report, outcome.exported_baseline && { file: displayPath(outcome.exported_baseline.file, context.cwd), entries: outcome.exported_baseline.entries });
    if (choice.reporters.includes('console')) {
      people(renderRunSummary(outcome.report, paint(context.output.color), displayPath(outcome.out_dir, context.cwd), context.output.columns, context.output.wrap));
      const fit = (text: string): string => (context.output.wrap ? wrapLines(text, context.output.columns - 1) : text);
      const judge = judgeSummary(outcome.report.judge);
      if (outcome.report.comparison) people(renderComparison(outcome.report.comparison, paint(context.output.color), context.output.columns));
      if (judge !== null) people(`${fit(judge)}\n`);
      if (notes.err) context.output.err(fit(notes.err));
      if (notes.out) people(fit(notes.out));
    } else if (notes.err && !choice.reporters.includes('github')) {
      context.output.err(notes.err);
    }
    if (choice.document === 'json') for (const chunk of reportJsonChunks(outcome.report)) context.output.out(chunk);
    if (choice.document === 'junit') context.output.out(renderJunit(outcome.report));
    if (choice.document === 'markdown') context.output.out(renderSummaryMarkdown(outcome.report));
    if (choice.reporters.includes('github')) {
      const workspace = context.env.GITHUB_WORKSPACE;
      people(renderGithubAnnotations(outcome.report, expectationPlaces(outcome), { cwd: context.cwd, ...(workspace ? { workspace } : {}) }));
    }
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

/** Finds a failing expectation in the suite's files, parsing only the files of failing scenarios. */
function expectationPlaces(outcome: RunOutcome): LocateExpectation {
  const locate = expectationLocator();
  const files = new Map(outcome.suite.scenarios.map((scenario) => [scenario.data.id, scenario.file]));
  return (result: ReportResult, metricIndex: number | undefined) => {
    const scenarioFile = files.get(result.scenario_id);
    if (scenarioFile === undefined) return undefined;
    const query = { scenarioFile, suiteFile: outcome.suite.file, agent: result.agent, metrics: result.metrics.map((metric) => metric.metric) };
    return locate({ ...query, index: metricIndex ?? -1 });
  };
}

function displayPath(path: string, cwd: string): string {
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}
