import { resolve } from 'node:path';
import { ConfigError, displayPath, seededRandom, terminalSafe } from '@parley/core';
import { bucketThreshold, canaryArm, canaryWindow, compareCanary, judgedScores, negativeConversations, type CanaryComparison, type ScoreSource } from '@parley/canary';
import Table from 'cli-table3';
import type { CommandContext } from '../program/command-context.js';
import { integerFlag } from '../program/flags.js';
import { paint } from '../output/output.js';
import { wrapWithPrefixes } from '../output/text-wrap.js';

export interface CanaryAssignFlags {
  rollout: string;
  salt?: string;
}

export interface CanaryCompareFlags {
  logs: string;
  feedback?: string;
  stable: string;
  canary: string;
  since?: string;
  suite?: string;
  format?: 'text' | 'json';
  seed: string;
  minRise: string;
  alpha: string;
  power: string;
}


/** `parley canary assign`: one line per id; exit 2 for a bad --rollout or no ids at all. */
export async function canaryAssignCommand(ids: readonly string[], flags: CanaryAssignFlags, context: CommandContext, readStdin: () => AsyncIterable<Buffer | string>): Promise<number> {
  const rolloutPercent = Number(flags.rollout.replace(/%$/, ''));
  try {
    bucketThreshold(flags.rollout.trim() === '' ? Number.NaN : rolloutPercent);
  } catch (error) {
    throw new ConfigError(`--rollout: ${(error as Error).message} (e.g. --rollout 5 for 5 %)`);
  }
  const salt = flags.salt ?? 'parley-canary';
  const list = ids.length > 0 ? ids : await stdinIds(readStdin());
  if (list.length === 0) throw new ConfigError('parley canary assign needs conversation ids: as arguments, or one per line on stdin');
  // The arm is drawn from the id as given; it is printed with control characters as escapes.
  const lines = list.map((id) => `${terminalSafe(id)}\t${canaryArm(id, { rolloutPercent, salt })}`);
  context.output.out(`${lines.join('\n')}\n`);
  return 0;
}

/**
 * `parley canary compare`: reads the logs (and feedback), keeps the window, compares the two
 * versions and prints the table (or JSON). Exit 1 on `rollback`, 0 on `promote` or `continue`,
 * 2 on bad input (a ConfigError naming file:line).
 */
export async function canaryCompareCommand(flags: CanaryCompareFlags, context: CommandContext): Promise<number> {
  const production = await import('@parley/production');
  const seed = integerFlag('--seed', flags.seed);
  const power = {
    rise: fractionFlag('--min-rise', flags.minRise, 100),
    alpha: fractionFlag('--alpha', flags.alpha, 1),
    power: fractionFlag('--power', flags.power, 1),
  };
  const now = context.clock.now();
  const since = flags.since !== undefined ? production.sinceCutoff(flags.since, now) : undefined;
  const logsFile = resolve(context.cwd, flags.logs);
  const logged = production.readProductionLog(logsFile);
  const window = canaryWindow(
    logged.conversations.map(({ value }) => ({ conversation_id: value.conversation_id, prompt_version: value.prompt_version, ended: production.conversationEnd(value) })),
    { stable: flags.stable, canary: flags.canary, logsFile, ...(since !== undefined ? { since } : {}) },
  );
  const feedback = flags.feedback !== undefined ? production.readFeedbackFile(resolve(context.cwd, flags.feedback)) : [];
  const negative = negativeConversations(feedback);
  const judged = judgedScores(await monitorScoreSource(context.cwd, flags.suite ?? '.'), new Set(window.conversations.map((conversation) => conversation.conversation_id)));
  const comparison = compareCanary({
    stableVersion: flags.stable,
    canaryVersion: flags.canary,
    conversations: window.conversations.map((conversation) => ({ ...conversation, negative: negative.has(conversation.conversation_id) })),
    withFeedback: flags.feedback !== undefined,
    ...(judged.scores !== undefined ? { scores: judged.scores } : {}),
    random: seededRandom(seed),
    power,
  });
  const unrecognised = feedback.filter((item) => item.unrecognised !== undefined);
  const notes = [
    ...(window.withoutVersion > 0 ? [`${window.withoutVersion} logged conversation${window.withoutVersion === 1 ? '' : 's'} without prompt_version left out`] : []),
    ...(window.outsideWindow > 0 ? [`${window.outsideWindow} conversation${window.outsideWindow === 1 ? '' : 's'} outside --since ${flags.since} (or without timestamps) left out`] : []),
    ...(logged.duplicates > 0 ? [`${logged.duplicates} line${logged.duplicates === 1 ? '' : 's'} repeating a conversation_id: each conversation counts once, as its last line`] : []),
    ...(flags.feedback === undefined ? ['no --feedback: the 👎 rate was not compared'] : []),
    ...(judged.note !== undefined ? [judged.note] : []),
  ];
  const warnings =
    unrecognised.length > 0
      ? [
          `${unrecognised.length} feedback value${unrecognised.length === 1 ? '' : 's'} not recognised (${unrecognised
            .slice(0, 3)
            .map((item) => `${item.unrecognised} at ${displayPath(item.source, context.cwd)}`)
            .join(', ')}${unrecognised.length > 3 ? ', …' : ''}): unknown words count as neutral, other numbers by their sign; use 👍/👎, ±1, true/false, or thumbs_up/thumbs_down`,
        ]
      : [];
  for (const warning of warnings) context.output.err(`${paint(context.output.color).yellow('warning:')} ${terminalSafe(warning)}\n`);

  if (flags.format === 'json') {
    context.output.out(`${JSON.stringify({ ...comparison, ...(since ? { since: since.toISOString() } : {}), notes, warnings }, null, 2)}\n`);
  } else {
    context.output.out(renderComparison(comparison, notes, context.output.color, since, Math.min(80, context.output.columns)));
  }
  return comparison.verdict === 'rollback' ? 1 : 0;
}

/** The scores `parley monitor` stored for the suite (in `.parley/parley.db`), or undefined without a store. */
async function monitorScoreSource(cwd: string, suiteDir: string): Promise<ScoreSource | undefined> {
  const { defaultStorePath, openMonitorStore, storeExists } = await import('@parley/store');
  const storePath = defaultStorePath(cwd);
  if (!storeExists(storePath)) return undefined;
  const { loadSuiteForRun } = await import('@parley/runner');
  const suite = loadSuiteForRun(resolve(cwd, suiteDir)).config.suite;
  return {
    suite,
    scores() {
      const store = openMonitorStore(storePath);
      try {
        return store.scoresBetween(suite, '', '\uffff');
      } finally {
        store.close();
      }
    },
  };
}

function renderComparison(comparison: CanaryComparison, notes: readonly string[], color: boolean, since: Date | undefined, width: number): string {
  const colors = paint(color);
  const lines: string[] = [];
  const window = since ? ` since ${since.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
  lines.push(colors.bold(`canary ${comparison.canary_version} vs stable ${comparison.stable_version}${window}`));
  const table = new Table({ head: ['', 'stable', 'canary', 'diff', comparison.metrics && comparison.metrics.length > 0 ? `test, ${Math.round((comparison.metrics.find((metric) => metric.interval)?.interval?.level ?? 0.95) * 100)} % CI` : 'test'], style: { head: color ? ['bold'] : [], border: color ? ['grey'] : [] } });
  table.push(['conversations', String(comparison.conversations.stable), String(comparison.conversations.canary), '', '']);
  if (comparison.feedback) {
    const { stable, canary, test } = comparison.feedback;
    table.push([
      '👎 rate',
      `${percent(stable.rate)} (${stable.negative})`,
      `${percent(canary.rate)} (${canary.negative})`,
      `${signed(test.difference * 100, 1)} pts`,
      `z ${test.z.toFixed(2)}, p ${pValue(test.pHigher)}`,
    ]);
  }
  for (const metric of comparison.metrics ?? []) {
    table.push([
      metric.metric,
      metric.stable.mean === null ? '—' : `${metric.stable.mean.toFixed(3)} (${metric.stable.scored})`,
      metric.canary.mean === null ? '—' : `${metric.canary.mean.toFixed(3)} (${metric.canary.scored})`,
      metric.difference === null ? '—' : signed(metric.difference, 3),
      metric.interval ? `${signed(metric.interval.low, 3)}…${signed(metric.interval.high, 3)}` : 'too few scores',
    ]);
  }
  lines.push(table.toString());
  const { power } = comparison;
  const ratio = power.ratio_assumed ? `stable : canary = ${power.ratio.toFixed(1)} : 1 assumed, as an arm has no conversations` : `stable : canary = ${power.ratio.toFixed(1)} : 1`;
  const minimum =
    power.minimum_canary === null
      ? `minimum canary sample: none, as no ${(power.rise * 100).toFixed(1)}-point rise in 👎 rate fits above ${percent(power.baseline)}`
      : `minimum canary sample: ${power.minimum_canary} conversations, to detect a ${(power.rise * 100).toFixed(1)}-point rise in 👎 rate over ${percent(power.baseline)} (one-sided α ${power.alpha}, power ${power.power}, ${ratio})`;
  lines.push(...wrapWithPrefixes(minimum, width, '', '  '));
  const verdictColor = comparison.verdict === 'rollback' ? colors.red : comparison.verdict === 'continue' ? colors.yellow : (text: string) => colors.status('pass', text);
  lines.push(`verdict: ${colors.bold(verdictColor(comparison.verdict))}`);
  for (const reason of comparison.reasons) lines.push(...wrapWithPrefixes(reason, width, '  ', '    '));
  for (const note of notes) lines.push(...wrapWithPrefixes(`note: ${note}`, width, '', '  ').map((line) => colors.dim(line)));
  return `${lines.join('\n')}\n`;
}

/** A flag in (0, max) turned into a fraction of max (`--min-rise 5` → 0.05). */
function fractionFlag(name: string, text: string, max: number): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0 || value >= max) throw new ConfigError(`${name} must be a number between 0 and ${max} (exclusive), got "${text}"`);
  return value / max;
}

function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)} %`;
}

function signed(value: number, digits: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(digits)}`;
}

function pValue(p: number): string {
  return p < 0.0001 ? '< 0.0001' : p.toFixed(4);
}

/**
 * The ids on stdin, one a line: bounded lines, UTF-8 only (an id in another encoding would hash to
 * another arm than the one the application computes), errors with `<stdin>:line`.
 */
async function stdinIds(stream: AsyncIterable<Buffer | string>): Promise<string[]> {
  const { LogIssues, logStreamLines } = await import('@parley/production');
  const issues = new LogIssues('<stdin>');
  const ids: string[] = [];
  for await (const { text } of logStreamLines(stream, '<stdin>', issues)) {
    const id = text.trim();
    if (id !== '') ids.push(id);
  }
  issues.throwIfAny();
  return ids;
}
