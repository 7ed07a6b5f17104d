import { resolve } from 'node:path';
import { ConfigError, displayPath, terminalSafe } from '@parley/core';
import type { Command } from 'commander';
import { parleyIn, type CommandContext, type ProgramContext } from '../program/command-context.js';
import { printIssues } from '../output/config-error-output.js';
import { paint } from '../output/output.js';
import { interruptedExit } from '../program/interrupted-exit.js';

interface PromoteFlags {
  logs?: string;
  feedback?: string;
  langfuse?: string | boolean;
  since?: string;
  out?: string;
  suite?: string;
  agent?: string;
}

/** Adds `parley promote` to the program. */
export function register(program: Command, context: ProgramContext): void {
  program
    .command('promote')
    .description('turn production conversations with negative feedback into masked candidate scenarios (gate: advisory)')
    .requiredOption('--logs <file>', 'conversation log, JSON lines (conversation_id, tenant, vertical, turns)')
    .option('--feedback <file>', 'feedback, JSON lines (conversation_id, user_feedback 👍/👎 or ±1, comment)')
    .option('--langfuse [url]', 'also read user_feedback scores from a self-hosted Langfuse (default $LANGFUSE_BASE_URL; keys from LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY)')
    .option('--since <window>', 'only conversations that ended in this window: 7d, 24h, 2w, or a date')
    .option('--out <dir>', 'where scenario files go (default <suite>/scenarios/from_production)')
    .option('--suite <dir>', 'the suite the scenarios are for', '.')
    .option('--agent <name>', "the suite's agent the conversations were with (default: the suite's only agent)")
    .action(async (flags: PromoteFlags) => context.setExitCode(await promoteCommand(flags, context)))
    .exitOverride();
}

/**
 * `parley promote`: reads the logs and the feedback (file and/or Langfuse), promotes with the
 * suite's redactor and prints what was promoted, what was skipped and why. Exit 0 when it ran
 * (also when nothing qualified), 2 for bad input or a refused restricted vertical (nothing written).
 */
async function promoteCommand(flags: PromoteFlags, context: CommandContext): Promise<number> {
  if (flags.feedback === undefined && flags.langfuse === undefined) {
    throw new ConfigError('parley promote needs feedback: --feedback FILE and/or --langfuse [URL]');
  }
  const { loadSuiteForRun } = await import('@parley/runner');
  const { suiteRedactor } = await import('@parley/redaction');
  const production = await import('@parley/production');
  const now = context.clock.now();
  const since = flags.since !== undefined ? production.sinceCutoff(flags.since, now) : undefined;
  const suite = loadSuiteForRun(resolve(context.cwd, flags.suite ?? '.'));
  printIssues(context.output, suite.warnings, context.cwd);
  const redactor = suiteRedactor(suite, { env: context.env });

  const logsFile = resolve(context.cwd, flags.logs!);
  const conversations = production.readProductionLog(logsFile).conversations;
  const feedback = flags.feedback !== undefined ? production.readFeedbackFile(resolve(context.cwd, flags.feedback)) : [];
  if (flags.langfuse !== undefined) {
    const { langfuseFromEnv } = await import('@parley/langfuse');
    const target = langfuseFromEnv(context.env, typeof flags.langfuse === 'string' ? flags.langfuse : undefined, '--langfuse');
    const { signal } = context;
    try {
      feedback.push(...(await production.fetchLangfuseFeedback(target, { ...(since ? { since } : {}), ...(signal ? { signal } : {}) })));
    } catch (error) {
      if (signal?.aborted !== true) throw error;
      // Ctrl-C / SIGTERM stopped the reading: nothing was promoted, an interruption (130 / 143), not an error.
      context.output.err(`interrupted (${String(signal.reason ?? 'SIGINT')}) while reading the feedback from Langfuse: nothing was promoted\n`);
      return interruptedExit(signal);
    }
  }

  const result = await production.promoteConversations({
    suite,
    logsFile: displayPath(logsFile, context.cwd),
    conversations,
    feedback,
    redactor,
    now,
    ...(flags.agent !== undefined ? { agent: flags.agent } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(flags.out !== undefined ? { outDir: resolve(context.cwd, flags.out) } : {}),
  });

  const colors = paint(context.output.color);
  const lines: string[] = [];
  const where = displayPath(result.scenarios_dir, context.cwd);
  if (result.promoted.length === 0) lines.push(`promoted nothing into ${where}`);
  else {
    lines.push(colors.bold(`promoted ${count(result.promoted.length, 'conversation')} into ${where} (gate: advisory until reviewed):`));
    for (const item of result.promoted) {
      // Ids, titles and reasons come from the logs: control characters are shown as escapes.
      lines.push(`  ${colors.status('pass', terminalSafe(item.scenario_id))}  ${terminalSafe(item.source)}  ${terminalSafe(item.title)}`);
      lines.push(colors.dim(`    ${displayPath(item.scenario_file, context.cwd)}, ${displayPath(item.recording_file, context.cwd)}`));
      for (const note of item.notes) lines.push(colors.dim(`    note: ${terminalSafe(note)}`));
    }
  }
  if (result.skipped.length > 0) {
    lines.push(colors.bold(`skipped ${result.skipped.length}:`));
    for (const item of result.skipped) lines.push(`  ${colors.status('skipped', terminalSafe(item.source))}  ${terminalSafe(item.conversation)}: ${terminalSafe(item.reason)}`);
  }
  const unused = [
    result.without_feedback > 0 ? `${count(result.without_feedback, 'conversation')} without feedback` : '',
    result.feedback_without_log > 0 ? `feedback on ${count(result.feedback_without_log, 'conversation')} not in the logs` : '',
  ].filter((part) => part !== '');
  if (unused.length > 0) lines.push(colors.dim(`not considered: ${unused.join('; ')}`));
  if (result.promoted.length > 0) {
    const suiteArgument = displayPath(suite.dir, context.cwd) || '.';
    lines.push(`next: review the files, then \`${parleyIn(context)} validate ${suiteArgument}\` and \`${parleyIn(context)} run ${suiteArgument} --tag from_production\``);
  }
  context.output.out(`${lines.join('\n')}\n`);
  return 0;
}

/** `--langfuse [URL]` with the keys of the environment; the secret is never printed. */
function count(value: number, noun: string): string {
  return `${value} ${value === 1 ? noun : `${noun}s`}`;
}

