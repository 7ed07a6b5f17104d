import { displayPath } from '@parley/core';
import type { Command } from 'commander';
import { parleyIn, type CommandContext, type ProgramContext } from '../program/command-context.js';
import { paint } from '../output/output.js';

interface MergeReportsFlags {
  out?: string;
  strict?: boolean;
  exportBaseline?: string;
}

export function register(program: Command, context: ProgramContext): void {
  program
    .command('merge-reports')
    .description('merge the shard reports of one run into one report and one exit code (exit 2 for shards that do not belong together)')
    .argument('<dirs...>', 'shard report folders (or report.json files)')
    .option('--out <dir>', 'report folder (default .parley/runs/<run_id>)')
    .option('--strict', 'warnings, flaky results and missing baselines fail the merged run')
    .option('--export-baseline <file>', 'write a baseline from the merged run')
    .action(async (dirs: string[], flags: MergeReportsFlags) => context.setExitCode(await mergeReportsCommand(dirs, flags, context)));
}

/**
 * `parley merge-reports DIR…`: the shard reports of one run merged into one report.json, junit.xml,
 * report.html and summary.md (also appended to $GITHUB_STEP_SUMMARY) and one exit code, as if the suite had
 * run in one job. Shards of different suites, configurations or commits are refused with exit 2.
 */
async function mergeReportsCommand(paths: string[], flags: MergeReportsFlags, context: CommandContext): Promise<number> {
  const { mergeShardRuns } = await import('@parley/runner');
  // Loaded here, not with the command: the report libraries are not for every command's start-up.
  const { judgeSummary } = await import('@parley/reports');
  const { gateNotes } = await import('../output/gate-notes.js');
  const { renderRunSummary } = await import('../output/run-summary.js');
  const { renderComparison } = await import('../output/comparison-table.js');
  const merged = mergeShardRuns(
    {
      paths,
      ...(flags.out !== undefined ? { outDir: flags.out } : {}),
      ...(flags.strict ? { strict: true } : {}),
      ...(flags.exportBaseline !== undefined ? { exportBaseline: flags.exportBaseline } : {}),
      ...(context.env.GITHUB_STEP_SUMMARY ? { githubStepSummary: context.env.GITHUB_STEP_SUMMARY } : {}),
    },
    { cwd: context.cwd, clock: context.clock, random: context.random },
  );
  context.output.out(renderRunSummary(merged.report, paint(context.output.color), displayPath(merged.out_dir, context.cwd), context.output.columns, true, parleyIn(context)));
  if (merged.report.comparison) context.output.out(renderComparison(merged.report.comparison, paint(context.output.color), context.output.columns));
  const exported = merged.exported_baseline && { file: displayPath(merged.exported_baseline.file, context.cwd), entries: merged.exported_baseline.entries };
  const notes = gateNotes(merged.report, exported);
  const judge = judgeSummary(merged.report.judge);
  if (judge !== null) context.output.out(`${judge}\n`);
  if (notes.err) context.output.err(notes.err);
  if (notes.out) context.output.out(notes.out);
  return merged.exit_code;
}

