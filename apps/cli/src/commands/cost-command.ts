import { resolve } from 'node:path';
import type { RunReport } from '@parley/reports';
import type { JudgeSpendEntry, RunSpend, SpendSummary } from '@parley/store';
import Table from 'cli-table3';
import { parleyIn, type CommandContext } from '../program/command-context.js';
import { paint } from '../output/output.js';
import { useFolderStoreSetting } from '../program/folder-store-setting.js';

export interface CostFlags {
  since: string;
  format?: 'text' | 'json';
}


/**
 * `parley cost`: reads the runs of the window from the store, adds the report folders given (runs
 * the store does not have; a merged run counts only the shards that are not there themselves), and prints the spend
 * by suite, model and month. Exit 0, or 2 for a bad --since or an unreadable report.
 */
export async function costCommand(reportPaths: readonly string[], flags: CostFlags, context: CommandContext): Promise<number> {
  const { defaultStorePath, openJudgeSpend, openModelSpend, storeExists, summarizeSpend } = await import('@parley/store');
  const { sinceCutoff } = await import('@parley/production');
  const { readReportFile } = await import('@parley/reports');
  const since = sinceCutoff(flags.since, context.clock.now());
  await useFolderStoreSetting(context.cwd);
  const storePath = defaultStorePath(context.cwd);
  const runs: RunSpend[] = [];
  const outside: JudgeSpendEntry[] = [];
  if (storeExists(storePath)) {
    const spendStore = openModelSpend(storePath);
    try {
      runs.push(...spendStore.runsSince(since.toISOString()));
    } finally {
      spendStore.close();
    }
    const judgeSpend = openJudgeSpend(storePath);
    try {
      outside.push(...judgeSpend.since(since.toISOString()));
    } finally {
      judgeSpend.close();
    }
  }
  const known = new Set(runs.map((run) => run.run_id));
  for (const path of reportPaths) {
    const report = readReportFile(resolve(context.cwd, path));
    if (known.has(report.run_id) || report.started_at < since.toISOString()) continue;
    known.add(report.run_id);
    const spent = reportSpend(report);
    runs.push({
      run_id: report.run_id,
      suite: report.suite,
      mode: report.mode,
      started_at: report.started_at,
      cost_usd: spent.usd,
      ...(spent.unpricedCalls > 0 ? { unpriced_calls: spent.unpricedCalls } : {}),
      models: [],
      // A merged report counts only what its shards not otherwise counted spent (summarizeSpend).
      ...(report.merged_from !== undefined ? { merged_from: report.merged_from.map((shard) => shard.run_id) } : {}),
    });
  }
  const summary = summarizeSpend(runs, outside);
  const notes: string[] = [];
  if (flags.format === 'json') {
    context.output.out(`${JSON.stringify({ since: since.toISOString(), ...summary, notes }, null, 2)}\n`);
  } else {
    context.output.out(renderCost(summary, since, notes, context.output.color, parleyIn(context)));
  }
  return 0;
}

/**
 * What a report folder's run paid: its total, or when that is unknown (a model without a price) what
 * its priced calls cost and how many calls had no price (at least one).
 */
function reportSpend(report: RunReport): { usd: number; unpricedCalls: number } {
  if (report.cost_usd !== null) return { usd: report.cost_usd, unpricedCalls: 0 };
  let usd = 0;
  let unpricedCalls = 0;
  for (const call of report.results.flatMap((result) => result.calls ?? [])) {
    if (call.cost_usd === null) unpricedCalls += 1;
    else usd += call.cost_usd;
  }
  return { usd, unpricedCalls: Math.max(1, unpricedCalls) };
}

function renderCost(summary: SpendSummary, since: Date, notes: readonly string[], color: boolean, parley: string): string {
  const colors = paint(color);
  const style = { head: color ? ['bold'] : [], border: color ? ['grey'] : [] };
  const unpriced = summary.by_source.reduce((sum, row) => sum + row.unpriced_calls, 0);
  const notCounted = unpriced > 0 ? ` (+${unpriced} call${unpriced === 1 ? '' : 's'} to models without a price, not counted: add them under pricing:)` : '';
  const lines = [colors.bold(`spend since ${since.toISOString().slice(0, 10)}: ${usd(summary.total_usd)} over ${summary.runs} run${summary.runs === 1 ? '' : 's'}${outsideRuns(summary)}${notCounted}`)];
  if (summary.runs === 0 && summary.by_source.every((row) => row.source === 'runs' || row.calls === 0)) {
    lines.push(`no runs in this window: start one with \`${parley} run <suite>\``);
    return `${lines.join('\n')}\n`;
  }
  const sources = new Table({ head: ['source', 'calls', 'spend'], style, colAligns: ['left', 'right', 'right'] });
  for (const row of summary.by_source) {
    const unpriced = row.unpriced_calls > 0 ? ` (+${row.unpriced_calls} unpriced)` : '';
    sources.push([SOURCE_NAMES[row.source], row.calls === 0 ? '—' : String(row.calls), `${usd(row.usd)}${unpriced}`]);
  }
  const suites = new Table({ head: ['suite', 'runs', 'spend'], style, colAligns: ['left', 'right', 'right'] });
  for (const row of summary.by_suite) suites.push([row.suite, String(row.runs), usd(row.usd)]);
  // Cache reads and Anthropic's cache writes (billed at a premium) side by side, when any call had either.
  const cached = summary.by_model.some((row) => row.cached_input_tokens > 0 || row.cache_write_input_tokens > 0);
  const cacheHeads = cached ? ['cached in', 'cache writes'] : [];
  const models = new Table({ head: ['model', 'calls', 'tokens in/out', ...cacheHeads, 'spend'], style, colAligns: ['left', 'right', 'right', ...cacheHeads.map(() => 'right' as const), 'right'] });
  for (const row of summary.by_model) {
    const name = row.provider ? `${row.provider}:${row.model}` : row.model;
    const unpriced = row.unpriced_calls > 0 ? ` (+${row.unpriced_calls} unpriced)` : '';
    models.push([
      name,
      row.calls === 0 ? '—' : String(row.calls),
      row.calls === 0 ? '—' : `${row.input_tokens}/${row.output_tokens}`,
      ...(cached ? [row.cached_input_tokens, row.cache_write_input_tokens].map((tokens) => (tokens > 0 ? String(tokens) : '—')) : []),
      `${usd(row.usd)}${unpriced}`,
    ]);
  }
  const months = new Table({ head: ['month', 'runs', 'spend'], style, colAligns: ['left', 'right', 'right'] });
  for (const row of summary.by_month) months.push([row.month, String(row.runs), usd(row.usd)]);
  lines.push('by source', sources.toString());
  if (summary.by_suite.length > 0) lines.push('by suite (runs)', suites.toString());
  lines.push('by model', summary.by_model.length > 0 ? models.toString() : colors.dim('  no calls reached a provider (replays cost nothing)'), 'by month', months.toString());
  if (summary.cache_saving_usd !== 0) lines.push(`prompt caching saved ${usd(summary.cache_saving_usd)} against full input prices`);
  if (summary.batch_saving_usd !== 0) lines.push(`batch judging saved ${usd(summary.batch_saving_usd)} against normal prices (parley monitor --batch)`);
  for (const note of notes) lines.push(colors.dim(`note: ${note}`));
  return `${lines.join('\n')}\n`;
}

const SOURCE_NAMES: Record<SpendSummary['by_source'][number]['source'], string> = { runs: 'runs', monitor: 'monitor (judge)', calibration: 'calibrate judge' };

/** `, parley monitor and parley calibrate judge` when judge spend outside runs is in the window. */
function outsideRuns(summary: SpendSummary): string {
  const names = summary.by_source.filter((row) => row.source !== 'runs' && row.calls > 0).map((row) => (row.source === 'monitor' ? 'parley monitor' : 'parley calibrate judge'));
  return names.length === 0 ? '' : `, ${names.join(' and ')}`;
}

function usd(value: number): string {
  return `$${value.toFixed(4)}`;
}
