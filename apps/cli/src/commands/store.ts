import { ConfigError, terminalSafe } from '@parley/core';
import type { Command } from 'commander';
import { parleyIn, type CommandContext, type ProgramContext } from '../program/command-context.js';
import { formatOption } from '../program/flags.js';

interface CopyFlags {
  to?: string;
  from?: string;
  merge?: boolean;
  format?: string;
}

/** Adds `parley store copy` to the program (docs/team-store.md). */
export function register(program: Command, context: ProgramContext): void {
  const store = program.command('store').description('the store itself: .parley/parley.db, or a team store in PostgreSQL');
  store
    .command('copy')
    .description('copy every table of .parley/parley.db into a PostgreSQL store (--to), or from one into it (--from)')
    .option('--to <url>', 'postgres:// URL to copy the local history into')
    .option('--from <url>', 'postgres:// URL to copy into the local history')
    .option('--merge', 'add to a store that already holds rows: rows whose key it has are kept as they are there')
    .addOption(formatOption())
    .action(async (flags: CopyFlags) => context.setExitCode(await storeCopyCommand(flags, context)));
}

/**
 * `parley store copy --to URL | --from URL [--merge]`: one transaction on the target; progress per
 * table on stderr; the URL is shown with its password replaced. Exit 0, or 2 (a bad or missing
 * URL, an unreachable server, a target holding rows without --merge, a newer schema).
 */
async function storeCopyCommand(flags: CopyFlags, context: CommandContext): Promise<number> {
  if ((flags.to === undefined) === (flags.from === undefined)) {
    throw new ConfigError('parley store copy needs one of --to URL (the local history into PostgreSQL) or --from URL (PostgreSQL into the local history)');
  }
  const { copyStoreBetween, defaultStorePath } = await import('@parley/store');
  const direction = flags.to !== undefined ? 'to' : 'from';
  const outcome = copyStoreBetween({
    localPath: defaultStorePath(context.cwd),
    direction,
    url: (flags.to ?? flags.from)!,
    merge: flags.merge === true,
    parley: parleyIn(context),
    onTable: (done, index, total) => {
      const kept = done.kept > 0 ? `, ${done.kept} kept as the target had them` : '';
      context.output.err(`store copy: ${index + 1}/${total} ${done.table}: ${done.copied} of ${done.rows} rows copied${kept}\n`);
    },
  });
  if (flags.format === 'json') {
    context.output.out(`${JSON.stringify(outcome, null, 2)}\n`);
    return 0;
  }
  const kept = outcome.kept > 0 ? ` (${outcome.kept} kept as the target had them)` : '';
  context.output.out(terminalSafe(`copied ${outcome.copied} rows of ${outcome.tables.length} tables from ${outcome.from} to ${outcome.to}${kept}\n`));
  return 0;
}
