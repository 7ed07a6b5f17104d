import { Option, type Command } from 'commander';
import { ConfigError, displayPath } from '@parley/core';
import type { JudgeCacheGroup, JudgeCacheStats } from '@parley/store';
import type { CommandContext, ProgramContext } from '../program/command-context.js';
import { useFolderStoreSetting } from '../program/folder-store-setting.js';

/** Adds `parley cache stats` and `parley cache clear`: the judge verdict cache in .parley/parley.db. */
export function register(program: Command, context: ProgramContext): void {
  const cache = program.command('cache').description('the judge verdict cache in .parley/parley.db').exitOverride();
  cache
    .command('stats')
    .description('how many verdicts are cached, how often they were reused and what that saved, per metric and judge model')
    .addOption(new Option('--format <format>', 'text or json').choices(['text', 'json']))
    .action(async (flags: { format?: string }) => context.setExitCode(await cacheStatsCommand(flags, context)))
    .exitOverride();
  cache
    .command('clear')
    .description('remove cached verdicts (all of them, or those of one metric or scenario): they are judged afresh next time')
    .option('--metric <name>', 'only this metric')
    .option('--scenario <id>', 'only this scenario')
    .action(async (flags: { metric?: string; scenario?: string }) => context.setExitCode(await cacheClearCommand(flags, context)))
    .exitOverride();
}

/** `parley cache stats [--format json]`: exit 0, also when there is no cache yet. */
async function cacheStatsCommand(flags: { format?: string }, context: CommandContext): Promise<number> {
  const format = flags.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new ConfigError(`--format must be text or json, got "${format}"`);
  const { defaultStorePath, openJudgeCache, storeExists, storeUrlFrom } = await import('@parley/store');
  await useFolderStoreSetting(context.cwd);
  const path = defaultStorePath(context.cwd);
  // A team store is named by its URL (password as ***), not by the local file it does not use.
  const url = storeUrlFrom();
  const shown = url === undefined ? displayPath(path, context.cwd) : (await import('@parley/store/sql')).parseDatabaseUrl(url).shown;
  if (!storeExists(path)) {
    context.output.out(format === 'json' ? `${JSON.stringify({ path: shown, entries: 0 }, null, 2)}\n` : `the judge cache is empty (no ${shown} yet)\n`);
    return 0;
  }
  const cache = openJudgeCache(path);
  try {
    const stats = { ...cache.stats(), path: shown };
    context.output.out(format === 'json' ? `${JSON.stringify(stats, null, 2)}\n` : renderStats(stats));
    return 0;
  } finally {
    cache.close();
  }
}

/** `parley cache clear [--metric M] [--scenario ID]`: exit 0 with how many verdicts went. */
async function cacheClearCommand(flags: { metric?: string; scenario?: string }, context: CommandContext): Promise<number> {
  const { defaultStorePath, openJudgeCache, storeExists } = await import('@parley/store');
  await useFolderStoreSetting(context.cwd);
  const path = defaultStorePath(context.cwd);
  if (!storeExists(path)) {
    context.output.out('the judge cache is already empty\n');
    return 0;
  }
  const cache = openJudgeCache(path);
  try {
    const removed = cache.clear({ ...(flags.metric ? { metric: flags.metric } : {}), ...(flags.scenario ? { scenario: flags.scenario } : {}) });
    const scope = [flags.metric ? `metric ${flags.metric}` : '', flags.scenario ? `scenario ${flags.scenario}` : ''].filter(Boolean).join(', ');
    context.output.out(`removed ${removed} cached verdict${removed === 1 ? '' : 's'}${scope ? ` (${scope})` : ''}: they are judged afresh on the next live run\n`);
    return 0;
  } finally {
    cache.close();
  }
}

function renderStats(stats: JudgeCacheStats): string {
  const judging =
    stats.judging_now > 0 ? `${stats.judging_now} verdict${stats.judging_now === 1 ? ' is' : 's are'} being judged now by a parley process sharing this store (others wait for ${stats.judging_now === 1 ? 'it' : 'them'})\n` : '';
  if (stats.entries === 0) return `the judge cache in ${stats.path} is empty\n${judging}`;
  const saved = stats.saved_usd === null ? 'an unknown amount (a judge model without a price)' : `$${stats.saved_usd.toFixed(4)}`;
  const stored = stats.stored_cost_usd === null ? 'unknown' : `$${stats.stored_cost_usd.toFixed(4)}`;
  const lines = [
    `judge cache ${stats.path}: ${stats.entries} verdict${stats.entries === 1 ? '' : 's'} (judging them cost ${stored}), reused ${stats.hits} time${stats.hits === 1 ? '' : 's'}, saving ${saved}`,
    `oldest ${stats.oldest}, newest ${stats.newest}`,
    '',
    ...table('metric', stats.by_metric),
    '',
    ...table('judge model', stats.by_judge_model),
  ];
  return `${lines.join('\n')}\n${judging}`;
}

function table(heading: string, groups: readonly JudgeCacheGroup[]): string[] {
  const width = Math.max(heading.length, ...groups.map((group) => group.name.length));
  return [
    `${heading.padEnd(width)}  verdicts  reused`,
    ...groups.map((group) => `${group.name.padEnd(width)}  ${String(group.entries).padStart(8)}  ${String(group.hits).padStart(6)}`),
  ];
}
