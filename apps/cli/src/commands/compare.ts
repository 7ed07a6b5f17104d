import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '@parley/core';
import { Option, type Command } from 'commander';
import { parleyIn, type CommandContext, type ProgramContext } from '../program/command-context.js';
import { integerFlag } from '../program/flags.js';
import { useFolderStoreSetting } from '../program/folder-store-setting.js';

interface CompareFlags {
  format?: string;
  seed?: string;
  resamples?: string;
  pairwise?: boolean;
  suite?: string;
}

export function register(program: Command, context: ProgramContext): void {
  program
    .command('compare')
    .description('compare two runs (stored run ids or report files) offline: deltas, regressions first, and with repeats a paired test')
    .argument('<before>', 'run id (or prefix), report.json, or a report folder')
    .argument('<after>', 'run id (or prefix), report.json, or a report folder')
    .addOption(new Option('--format <format>', 'text or json').choices(['text', 'json']))
    .option('--seed <n>', 'seed of the bootstrap and sampled permutations', '1')
    .option('--resamples <n>', 'bootstrap resamples', '10000')
    .option('--pairwise', "also judge each scenario's two transcripts side by side with the suite's judge, in both orders (live calls)")
    .option('--suite <dir>', 'suite whose judge.primary judges --pairwise (default: the suite the run was made from, else .)')
    .action(async (before: string, after: string, flags: CompareFlags) => context.setExitCode(await compareCommand(before, after, flags, context)));
}

/**
 * `parley compare A B`: two stored runs (id or prefix) or report files/folders, offline. Prints
 * the comparison (text, or JSON with `--format json`) and exits 0: it informs, the gate is `run`.
 */
async function compareCommand(before: string, after: string, flags: CompareFlags, context: CommandContext): Promise<number> {
  const format = flags.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new ConfigError(`--format must be text or json, got "${format}"`);
  const seed = flags.seed === undefined ? 1 : integerFlag('--seed', flags.seed, 0);
  const resamples = flags.resamples === undefined ? 10_000 : integerFlag('--resamples', flags.resamples, 100);
  if (flags.suite !== undefined && !isFolder(resolve(context.cwd, flags.suite))) throw new ConfigError({ file: flags.suite, message: 'no such folder: give the suite folder with --suite' });
  const { compareRuns, loadRunScores, renderComparison } = await import('@parley/compare');
  const { defaultStorePath } = await import('@parley/store');
  await useFolderStoreSetting(context.cwd);
  const where = { cwd: context.cwd, storePath: defaultStorePath(context.cwd), parley: parleyIn(context) };
  const comparison = compareRuns(loadRunScores(before, where), loadRunScores(after, where), { seed, resamples });
  if (!flags.pairwise) {
    context.output.out(format === 'json' ? `${JSON.stringify(comparison, null, 2)}\n` : renderComparison(comparison));
    return 0;
  }
  const pairwise = await pairwiseSection(before, after, flags, context, where);
  context.output.out(format === 'json' ? `${JSON.stringify({ ...comparison, pairwise }, null, 2)}\n` : `${renderComparison(comparison)}\n${(await import('@parley/compare')).renderPairwise(pairwise)}`);
  return 0;
}

/** `--pairwise`: both runs' transcripts judged side by side, in both orders, by the suite's judge. */
async function pairwiseSection(before: string, after: string, flags: CompareFlags, context: CommandContext, where: { cwd: string; storePath: string }) {
  const { comparePairwise, loadRunTranscripts, pairwiseJudgeOf } = await import('@parley/compare');
  const { liveJudgeProvider } = await import('@parley/judge');
  const beforeRun = loadRunTranscripts(before, where);
  const afterRun = loadRunTranscripts(after, where);
  const judge = pairwiseJudgeOf(resolve(context.cwd, flags.suite ?? afterRun.suite_dir ?? beforeRun.suite_dir ?? '.'));
  return comparePairwise(beforeRun, afterRun, { ...judge, provider: liveJudgeProvider(judge.model, context.env) }, context.signal);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
