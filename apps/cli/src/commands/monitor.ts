import { resolve } from 'node:path';
import { ConfigError, displayPath, parseUsdAmount, terminalSafe } from '@parley/core';
import type { MonitorOutcome } from '@parley/monitor';
import type { Command } from 'commander';
import { parleyIn, type CommandContext, type ProgramContext } from '../program/command-context.js';
import { numberFlag } from '../program/flags.js';
import { printIssues } from '../output/config-error-output.js';
import { paint, type Paint } from '../output/output.js';

interface MonitorFlags {
  logs?: string;
  from?: string;
  langfuse?: boolean;
  batch?: boolean;
  suite?: string;
  agent?: string;
  since?: string;
  sample?: string;
  salt?: string;
  metric?: string[];
  budget?: string;
  windows?: string;
  alpha?: string;
  dryRun?: boolean;
  flush?: boolean;
  format?: string;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Adds `parley monitor` to the program. */
export function register(program: Command, context: ProgramContext): void {
  program
    .command('monitor')
    .description('judge a deterministic sample of production conversations and alert when a metric falls (exit 1 on an alert)')
    .option('--logs <file>', 'conversation log, JSON lines (conversation_id, tenant, vertical, language, prompt_version, turns)')
    .option('--from <source>', 'where conversations come from: logs (with --logs) or langfuse (traces, with LANGFUSE_HOST and keys)')
    .option('--langfuse', 'the same as --from langfuse')
    .option('--batch', "judge through the providers' batch APIs at half price; a later run collects the answers")
    .option('--suite <dir>', 'the suite whose judge, metrics and redactor are used', '.')
    .option('--agent <name>', "the suite's agent the conversations were with (default: the suite's only agent)")
    .option('--since <window>', 'the window: conversations that ended in it are sampled, and its scores compared with the windows before it', '6h')
    .option('--sample <percent>', 'percent of conversations to judge, chosen by a hash of the conversation id', '5')
    .option('--salt <salt>', 'salt of the sampling hash (another salt draws an independent sample)', 'parley-monitor')
    .option('--metric <name>', 'also judge this judge metric (repeatable)', collect)
    .option('--budget <usd>', 'spending limit of this run (else PARLEY_BUDGET_USD, else settings.budget_usd)')
    .option('--windows <n>', 'previous windows the current one is compared with', '4')
    .option('--alpha <p>', 'significance level of the drop test', '0.01')
    .option('--dry-run', 'print the conversations it would judge and the estimated cost; call nothing, store nothing')
    .option('--flush', 'only send the scores earlier runs left undelivered to Langfuse (the outbox); judge nothing')
    .option('--format <format>', 'text or json', 'text')
    .action(async (flags: MonitorFlags) => context.setExitCode(await monitorCommand(flags, context)))
    .exitOverride();
}

/** `parley monitor`: exit 0, 1 on an alert, 2 on bad input. */
async function monitorCommand(flags: MonitorFlags, context: CommandContext): Promise<number> {
  if (flags.format !== 'text' && flags.format !== 'json') throw new ConfigError(`--format must be text or json, got "${flags.format}"`);
  if (flags.flush) {
    const judging = [flags.logs !== undefined ? '--logs' : '', flags.from !== undefined ? '--from' : '', flags.langfuse ? '--langfuse' : '', flags.dryRun ? '--dry-run' : '', flags.batch ? '--batch' : ''].filter((flag) => flag !== '');
    if (judging.length > 0) throw new ConfigError(`--flush only sends pending scores and judges nothing: drop ${judging.join(', ')}`);
    return flushScores(flags, context);
  }
  const percent = numberFlag('--sample', flags.sample ?? '5', 0, 100);
  if (Math.abs(Math.round(percent * 100) - percent * 100) > 1e-6) throw new ConfigError(`--sample takes at most two decimals (steps of 0.01 %), got "${flags.sample}"`);
  const windows = numberFlag('--windows', flags.windows ?? '4', 1, 1000);
  const alpha = numberFlag('--alpha', flags.alpha ?? '0.01', 0, 1);
  const { loadSuiteForRun } = await import('@parley/runner');
  const { suiteRedactor } = await import('@parley/redaction');
  const { sinceCutoff } = await import('@parley/production');
  const monitor = await import('@parley/monitor');
  const now = context.clock.now();
  const since = sinceCutoff(flags.since ?? '6h', now);
  const windowMs = now.getTime() - since.getTime();
  if (windowMs <= 0) throw new ConfigError(`--since ${flags.since} is not in the past`);
  const suite = loadSuiteForRun(resolve(context.cwd, flags.suite ?? '.'));
  printIssues(context.output, suite.warnings, context.cwd);
  const budgetUsd =
    flags.budget !== undefined
      ? parseUsdAmount(flags.budget, '--budget')
      : context.env.PARLEY_BUDGET_USD !== undefined && context.env.PARLEY_BUDGET_USD.trim() !== ''
        ? parseUsdAmount(context.env.PARLEY_BUDGET_USD, 'PARLEY_BUDGET_USD')
        : suite.config.settings?.budget_usd;
  if (flags.langfuse && flags.from !== undefined && flags.from !== 'langfuse') throw new ConfigError(`--langfuse reads Langfuse traces: drop --from ${flags.from}`);
  const from = flags.langfuse ? 'langfuse' : (flags.from ?? (flags.logs !== undefined ? 'logs' : undefined));
  if (from !== 'logs' && from !== 'langfuse') throw new ConfigError(from === undefined ? 'parley monitor reads conversations from --logs FILE or --from langfuse' : `--from must be logs or langfuse, got "${from}"`);
  if (from === 'logs' && flags.logs === undefined) throw new ConfigError('--from logs needs --logs FILE');
  if (from === 'langfuse' && flags.logs !== undefined) throw new ConfigError('--from langfuse reads traces, not a log: drop --logs, or use --from logs');
  const salt = flags.salt ?? 'parley-monitor';
  const notes: string[] = [];
  let source: string;
  let sample: Awaited<ReturnType<typeof monitor.readSampledConversations>>;
  if (from === 'langfuse') {
    const { langfuseFromEnv, shownLangfuse } = await import('@parley/langfuse');
    const target = langfuseFromEnv(context.env);
    const read = await monitor.readLangfuseConversations(target, { percent, salt, since, until: now });
    if (read.notConversations > 0) notes.push(`${count(read.notConversations, 'sampled trace')} without a conversation (no generation with messages, no input or output) left out`);
    source = 'langfuse';
    sample = read;
    notes.push(`conversations read from ${shownLangfuse(target)} traces of the window; "langfuse:N" is a trace's position in that listing`);
  } else {
    const logsFile = resolve(context.cwd, flags.logs!);
    source = displayPath(logsFile, context.cwd);
    const read = await monitor.readSampledConversations(logsFile, { percent, salt, since });
    if (read.withoutTimestamps > 0) notes.push(`${count(read.withoutTimestamps, 'sampled conversation')} without turn timestamps left out (--since needs each turn's "timestamp", ISO 8601)`);
    if (read.duplicates > 0) notes.push(`${count(read.duplicates, 'line')} repeating a sampled conversation_id: each conversation is judged once, as its last line`);
    sample = read;
  }
  const langfuse = await langfuseIfConfigured(context.env);
  const outcome = await monitor.monitorConversations({
    suite,
    ...(flags.agent !== undefined ? { agent: flags.agent } : {}),
    logsFile: source,
    conversations: sample.sampled,
    redactor: suiteRedactor(suite, { env: context.env }),
    storePath: (await import('@parley/store')).defaultStorePath(context.cwd),
    clock: context.clock,
    env: context.env,
    metrics: flags.metric ?? [],
    dryRun: flags.dryRun === true,
    batch: flags.batch === true,
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
    ...(langfuse ? { langfuse } : {}),
    windowMs,
    previousWindows: windows,
    comparison: { ...monitor.DEFAULT_WINDOW_COMPARISON, alpha },
    ...(context.signal ? { signal: context.signal } : {}),
  });
  if (flags.format === 'json') {
    context.output.out(`${JSON.stringify({ ...outcome, source: from, total: sample.total, before_window: sample.beforeWindow, sample_percent: percent, salt, drop_test: monitor.DROP_TEST, notes }, null, 2)}\n`);
  } else {
    context.output.out(renderMonitor(outcome, { total: sample.total, percent, salt, since: flags.since ?? '6h', dryRun: flags.dryRun === true, batch: flags.batch === true, langfuse: langfuse !== undefined, test: monitor.DROP_TEST, notes, parley: parleyIn(context) }, paint(context.output.color)));
  }
  return outcome.exit_code;
}

interface RenderFacts {
  /** `parley` or `npx parley`: how the person runs the commands the summary names. */
  parley: string;
  total: number;
  percent: number;
  salt: string;
  since: string;
  dryRun: boolean;
  batch: boolean;
  langfuse: boolean;
  test: string;
  notes: readonly string[];
}

function renderMonitor(outcome: MonitorOutcome, facts: RenderFacts, colors: Paint): string {
  const lines: string[] = [];
  lines.push(colors.bold(`monitor ${outcome.suite} · ${facts.percent}% sample (salt ${facts.salt}) · window ${facts.since}`));
  lines.push(`${outcome.sampled} of ${facts.total} logged conversations sampled in the window; ${outcome.already_judged} judged before`);
  for (const note of facts.notes) lines.push(colors.dim(`note: ${terminalSafe(note)}`));
  for (const item of outcome.refused) lines.push(`  ${colors.status('error', 'refused')}  ${terminalSafe(item.source)}  ${terminalSafe(item.conversation)}: ${terminalSafe(item.reason)}`);
  const estimate = outcome.estimated_usd === null ? 'cost unknown (a judge model has no price)' : `estimated $${outcome.estimated_usd.toFixed(4)}${facts.batch ? ' at batch prices (half)' : ''}`;
  if (facts.dryRun) {
    lines.push(`would judge ${count(outcome.planned.length, 'conversation')} · ${estimate} (votes on failing verdicts and the cross-check come on top)`);
    // Ids and file names come from the log: control characters in them are shown as escapes.
    for (const item of outcome.planned) lines.push(`  ${terminalSafe(item.source)}  ${terminalSafe(item.conversation)}  ${item.metrics.join(', ')}`);
    return `${lines.join('\n')}\n`;
  }
  const cached = outcome.cached_input_tokens > 0 ? ` (${outcome.cached_input_tokens} input tokens from the prompt cache${outcome.cache_saving_usd === null ? '' : `, saving $${outcome.cache_saving_usd.toFixed(4)}`})` : '';
  const spent = `${outcome.spent_usd === null ? 'cost unknown' : `$${outcome.spent_usd.toFixed(4)}`}${cached}`;
  const pushed = facts.langfuse ? ` · ${count(outcome.pushed_scores, 'score')} pushed to Langfuse` : '';
  lines.push(`judged ${count(outcome.judged.length, 'conversation')} · ${spent}${facts.batch ? ' at batch prices' : ''}${pushed}`);
  for (const item of outcome.judged) {
    const scores = item.scores.map((score) => `${score.metric} ${score.error ? 'error' : score.score === null ? (score.passed ? 'pass' : 'fail') : score.score.toFixed(2)}`).join(', ');
    lines.push(`  ${colors.status(item.status === 'error' ? 'error' : 'pass', item.status)}  ${terminalSafe(item.source)}  ${terminalSafe(item.conversation)}  ${scores}`);
    // Why a metric could not be evaluated (masked like the stored reason), so the next step is clear.
    for (const score of item.scores) if (score.reason !== undefined) lines.push(`      ${score.metric}: ${terminalSafe(score.reason)}`);
  }
  if (outcome.left_to_others.length > 0) {
    lines.push(`${count(outcome.left_to_others.length, 'conversation')} left to another monitor run (it claimed them first)`);
  }
  for (const batch of outcome.batch?.batches ?? []) {
    const what = `${batch.batch_id} (${batch.provider}:${batch.model}, ${count(batch.requests, 'request')})`;
    if (batch.state === 'submitted') lines.push(`batch: submitted ${what}`);
    else if (batch.state === 'collected') lines.push(`batch: collected ${what}`);
    else if (batch.state === 'in_progress') lines.push(`batch: ${what} still in progress${batch.detail ? ` (${terminalSafe(batch.detail)})` : ''}`);
    else lines.push(colors.yellow(`batch: ${what} failed${batch.detail ? ` (${terminalSafe(batch.detail)})` : ''}: its requests are sent again on the next run`));
  }
  if (outcome.batch && outcome.batch.waiting.length > 0) {
    lines.push(`${count(outcome.batch.waiting.length, 'conversation')} wait for batch answers: run \`${facts.parley} monitor --batch\` again to collect them (providers finish batches within 24 h)`);
  }
  if (outcome.delivery_error !== null) {
    lines.push(colors.red(`Langfuse did not take the scores: ${terminalSafe(outcome.delivery_error)}`));
    lines.push(`${count(outcome.undelivered_scores, 'score')} kept in the outbox: the next run, or \`${facts.parley} monitor --flush\`, sends them`);
  }
  if (outcome.skipped_for_budget.length > 0) lines.push(colors.yellow(`budget reached: ${count(outcome.skipped_for_budget.length, 'conversation')} left for the next run`));
  if (outcome.interrupted !== null) {
    lines.push(colors.yellow(`interrupted (${outcome.interrupted}): ${count(outcome.judged.length, 'judged conversation')} saved; ${count(outcome.not_judged.length, 'conversation')} left for the next run (run parley monitor again to resume)`));
  }
  for (const window of outcome.windows) {
    const now = window.current.mean === null ? '–' : window.current.mean.toFixed(3);
    const before = window.previous.mean === null ? '–' : window.previous.mean.toFixed(3);
    const floor = window.floor === null ? '' : ` · floor ${window.floor.toFixed(2)}`;
    const test = window.drop_test ? ` · p ${window.drop_test.p_value < 0.0001 ? '< 0.0001' : window.drop_test.p_value.toFixed(4)}` : '';
    lines.push(`  ${window.metric}: ${now} (n ${window.current.n}) vs ${before} before (n ${window.previous.n})${floor}${test}`);
  }
  if (outcome.alerts.length > 0) {
    for (const alert of outcome.alerts) lines.push(colors.red(`ALERT ${alert}`));
    lines.push(colors.dim(`drop test: ${facts.test}`));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `parley monitor --flush`: sends the scores the outbox holds for this Langfuse (earlier runs that
 * were killed, or found Langfuse down) and judges nothing. Exit 0 when none is left, 1 when Langfuse
 * did not take them, 2 without Langfuse settings.
 */
async function flushScores(flags: MonitorFlags, context: CommandContext): Promise<number> {
  const { langfuseFromEnv, shownLangfuse } = await import('@parley/langfuse');
  const target = langfuseFromEnv(context.env, undefined, 'parley monitor --flush (sending pending scores to Langfuse)');
  const { deliverPendingScores } = await import('@parley/monitor');
  const { defaultStorePath, storeExists } = await import('@parley/store');
  const storePath = defaultStorePath(context.cwd);
  const delivery = storeExists(storePath) ? await deliverPendingScores(target, storePath, context.clock) : { sent: 0, pending: 0, pending_elsewhere: 0, error: null };
  if (flags.format === 'json') {
    context.output.out(`${JSON.stringify({ destination: shownLangfuse(target), ...delivery }, null, 2)}\n`);
  } else {
    const colors = paint(context.output.color);
    const lines = [`sent ${count(delivery.sent, 'pending score')} to ${shownLangfuse(target)}${delivery.pending > 0 ? `; ${count(delivery.pending, 'score')} still pending` : ''}`];
    if (delivery.error !== null) lines.push(colors.red(`Langfuse did not take them: ${terminalSafe(delivery.error)}`));
    if (delivery.pending_elsewhere > 0) lines.push(colors.dim(`note: ${count(delivery.pending_elsewhere, 'score')} wait for another Langfuse host: run --flush with its LANGFUSE_HOST`));
    context.output.out(`${lines.join('\n')}\n`);
  }
  return delivery.error === null ? 0 : 1;
}

async function langfuseIfConfigured(env: NodeJS.ProcessEnv) {
  if (!(env.LANGFUSE_HOST ?? env.LANGFUSE_BASE_URL) || !env.LANGFUSE_PUBLIC_KEY || !env.LANGFUSE_SECRET_KEY) return undefined;
  const { langfuseFromEnv } = await import('@parley/langfuse');
  return langfuseFromEnv(env);
}

function count(value: number, noun: string): string {
  return `${value} ${value === 1 ? noun : `${noun}s`}`;
}

