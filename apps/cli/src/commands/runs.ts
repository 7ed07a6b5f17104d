import { ConfigError, terminalSafe } from '@parley/core';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { parleyIn, type CommandContext, type ProgramContext } from '../program/command-context.js';
import { formatOption, integerFlag } from '../program/flags.js';
import { useFolderStoreSetting } from '../program/folder-store-setting.js';

export function register(program: Command, context: ProgramContext): void {
  const runs = program.command('runs').description('the run history in .parley/parley.db');
  runs
    .command('list')
    .description('recent runs, newest first')
    .option('--limit <n>', 'how many', '20')
    .option('--suite <name>', 'only this suite')
    .addOption(formatOption())
    .action(async (flags: { limit?: string; suite?: string; format?: string }) => context.setExitCode(await runsListCommand(flags, context)));
  runs
    .command('show')
    .description('one run with its scenarios')
    .argument('<run_id>', 'run id or a unique prefix')
    .addOption(formatOption())
    .action(async (id: string, flags: { format?: string }) => context.setExitCode(await runsShowCommand(id, flags, context)));
  runs
    .command('prune')
    .description("removes the suite's runs beyond settings.history (default: its last 200 runs), with their report folders")
    .argument('[suite]', 'the suite folder (or its parley.yaml)', '.')
    .option('--dry-run', 'say what would be removed, change nothing')
    .addOption(formatOption())
    .action(async (suite: string, flags: PruneFlags) => context.setExitCode(await runsPruneCommand(suite, flags, context)));
}

interface PruneFlags {
  dryRun?: boolean;
  format?: string;
}

/**
 * In a terminal, tables fit its width (one column spare, so a full line never wraps); off a
 * terminal (logs, pipes) every column is written whole, for grep and for tools.
 */
function tableWidth(context: CommandContext): { width?: number } {
  return context.output.wrap ? { width: context.output.columns - 1 } : {};
}

/** `parley runs list`: the run history, newest first. */
async function runsListCommand(flags: { limit?: string; suite?: string; format?: string }, context: CommandContext): Promise<number> {
  const { defaultStorePath, openStore, storeExists } = await import('@parley/store');
  const { formatRunList } = await import('../output/runs-table.js');
  const limit = flags.limit === undefined ? 20 : integerFlag('--limit', flags.limit, 1);
  await useFolderStoreSetting(context.cwd);
  // Reading never creates .parley/parley.db (a team member without PARLEY_DATABASE_URL exported would get an empty one).
  if (!storeExists(defaultStorePath(context.cwd))) {
    context.output.out(flags.format === 'json' ? '[]\n' : `no runs yet: start one with \`${parleyIn(context)} run <suite>\`\n`);
    return 0;
  }
  const store = openStore(defaultStorePath(context.cwd));
  try {
    const runs = store.listRuns({ limit, ...(flags.suite ? { suite: flags.suite } : {}) });
    if (flags.format === 'json') {
      context.output.out(`${JSON.stringify(runs, null, 2)}\n`);
      return 0;
    }
    if (runs.length > 0) context.output.out(`${formatRunList(runs, tableWidth(context))}\n`);
    else if (flags.suite) context.output.out(`suite ${flags.suite} has no runs (${parleyIn(context)} runs list shows the runs of every suite)\n`);
    else context.output.out(`no runs yet: start one with \`${parleyIn(context)} run <suite>\`\n`);
    return 0;
  } finally {
    store.close();
  }
}

/** `parley runs show ID`: one run with every scenario's status, reason and scores. */
async function runsShowCommand(id: string, flags: { format?: string }, context: CommandContext): Promise<number> {
  const { defaultStorePath, openStore, storeExists } = await import('@parley/store');
  const { formatRunDetail } = await import('../output/runs-table.js');
  const { redactResultContent, withholdScenarioContent } = await import('@parley/reports');
  const { floorRedactor } = await import('@parley/redaction');
  await useFolderStoreSetting(context.cwd);
  if (!storeExists(defaultStorePath(context.cwd))) throw new ConfigError(`no run with id "${id}": no runs yet here (see \`${parleyIn(context)} runs list\`)`);
  const store = openStore(defaultStorePath(context.cwd));
  try {
    const run = store.getRun(id);
    if (!run) throw new ConfigError(`no run with id "${id}" (see \`${parleyIn(context)} runs list\`)`);
    // metadata_only: the store keeps the content for a reviewer who opens it on purpose; the console
    // is an output like a report, and no output ever shows such content (the scenario's reason, its
    // metrics' reasons and details, the error message: `--format json` printed them). The rest is masked as
    // the report is (the store keeps transcripts and reasons as they were, for triage): a CI log
    // that prints `runs show` holds no name or phone number the report would not.
    const redactor = floorRedactor();
    const results = store
      .getScenarioResults(run.id, { omitMetadataOnlyTranscripts: true })
      .map((result) => redactResultContent(withholdScenarioContent(result), redactor));
    if (flags.format === 'json') {
      context.output.out(`${JSON.stringify({ run, results }, null, 2)}\n`);
      return 0;
    }
    // Reasons hold what agents printed: their control characters are shown, not obeyed.
    context.output.out(`${terminalSafe(formatRunDetail(run, results, { ...tableWidth(context), parley: parleyIn(context) }))}\n`);
    return 0;
  } finally {
    store.close();
  }
}

/**
 * `parley runs prune [SUITE] [--dry-run]`: applies the suite's `settings.history` to the history in
 * `.parley/parley.db` (docs/file-formats.md, "Run history"). What is kept and why is the store's
 * business; this prints it.
 */
async function runsPruneCommand(suitePath: string, flags: PruneFlags, context: CommandContext): Promise<number> {
  const { defaultHistoryRetention, defaultStorePath, openStore, pruneHistory, useSuiteStoreSetting } = await import('@parley/store');
  const { formatPruneOutcome } = await import('../output/prune-summary.js');
  const { loadSuiteConfig } = await import('@parley/config');
  const { config } = loadSuiteConfig(resolve(context.cwd, suitePath));
  useSuiteStoreSetting(config.settings?.store);
  const store = openStore(defaultStorePath(context.cwd));
  try {
    const outcome = pruneHistory(store, {
      suite: config.suite,
      retention: config.settings?.history ?? defaultHistoryRetention,
      now: context.clock.now(),
      dryRun: flags.dryRun === true,
    });
    if (flags.format === 'json') context.output.out(`${JSON.stringify(outcome, null, 2)}\n`);
    else context.output.out(`${terminalSafe(formatPruneOutcome(outcome, context.cwd))}\n`);
    return 0;
  } finally {
    store.close();
  }
}
