import { Option, type Command } from 'commander';
import type { ProgramContext } from '../program/command-context.js';
import type { CanaryAssignFlags, CanaryCompareFlags } from './canary-command.js';

/** Adds `parley canary assign` and `parley canary compare` to the program. */
export function register(program: Command, context: ProgramContext): void {
  const readStdin = (): AsyncIterable<Buffer | string> => process.stdin;
  const canary = program.command('canary').description('canary rollouts of a new prompt version: who gets it, and whether to keep it');
  canary
    .command('assign')
    .description('print <id>\\t<canary|stable> for each conversation id (from stdin when none are given), by the deterministic hash rule')
    .argument('[ids...]', 'conversation ids')
    .requiredOption('--rollout <percent>', 'share of conversations on the canary, 0–100 (at most two decimals)')
    .option('--salt <salt>', 'salt of the hash; another salt draws another, independent canary population', 'parley-canary')
    .action(async (ids: string[], flags: CanaryAssignFlags) => context.setExitCode(await (await import('./canary-command.js')).canaryAssignCommand(ids, flags, context, readStdin)))
    .exitOverride();
  canary
    .command('compare')
    .description('compare canary and stable conversations by prompt_version: 👎 rate, judged metrics, verdict (exit 1 on rollback)')
    .requiredOption('--logs <file>', 'conversation log, JSON lines with prompt_version on each conversation')
    .option('--feedback <file>', 'feedback, JSON lines (conversation_id, user_feedback 👍/👎 or ±1)')
    .requiredOption('--stable <version>', 'prompt_version of the stable prompt')
    .requiredOption('--canary <version>', 'prompt_version of the canary prompt')
    .option('--since <window>', 'only conversations that ended in this window: 24h, 7d, or a date')
    .option('--suite <dir>', 'the suite whose `parley monitor` scores (in .parley/parley.db) are compared per metric', '.')
    .addOption(new Option('--format <format>', 'text or json').choices(['text', 'json']))
    .option('--seed <n>', 'seed of the bootstrap intervals', '1')
    .option('--min-rise <points>', 'smallest rise in 👎 rate (percentage points) the sample must be able to detect', '5')
    .option('--alpha <level>', 'one-sided significance level of the 👎-rate test', '0.05')
    .option('--power <power>', 'power of the sample-size calculation', '0.8')
    .action(async (flags: CanaryCompareFlags) => context.setExitCode(await (await import('./canary-command.js')).canaryCompareCommand(flags, context)))
    .exitOverride();
  canary.exitOverride();
}
