import { resolve } from 'node:path';
import { displayPath } from '@parley/core';
import { counted } from '../output/counted.js';
import type { Command } from 'commander';
import type { CommandContext, ProgramContext } from '../program/command-context.js';
import { printIssues } from '../output/config-error-output.js';

interface RecordingsExportFlags {
  out: string;
  scenario?: string[];
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Adds `parley recordings export` to the program. */
export function register(program: Command, context: ProgramContext): void {
  const recordings = program.command('recordings').description('the recordings (cassettes) of a suite').exitOverride();
  recordings
    .command('export')
    .description('copy recordings for sharing, masked by the redactor (metadata_only scenarios keep only usage and latencies)')
    .argument('[suite]', 'suite folder or parley.yaml', '.')
    .requiredOption('--out <dir>', 'folder to write <scenario_id>.jsonl files into (existing files are never overwritten)')
    .option('--scenario <glob>', 'only scenarios whose id matches (repeatable)', collect)
    .action(async (suite: string, flags: RecordingsExportFlags) => context.setExitCode(await recordingsExportCommand(suite, flags, context)))
    .exitOverride();
}

/** `parley recordings export [suite] --out DIR`: exit 0 when exported, 2 when refused (nothing written). */
async function recordingsExportCommand(suiteArgument: string, flags: RecordingsExportFlags, context: CommandContext): Promise<number> {
  const { loadSuiteForRun } = await import('@parley/runner');
  const { suiteRedactor } = await import('@parley/redaction');
  const { exportRecordings } = await import('@parley/production');
  const suite = loadSuiteForRun(resolve(context.cwd, suiteArgument), flags.scenario?.length ? { globs: flags.scenario } : {});
  printIssues(context.output, suite.warnings, context.cwd);
  const outDir = resolve(context.cwd, flags.out);
  const result = exportRecordings({ suite, redactor: suiteRedactor(suite, { env: context.env }), outDir });
  const withheld = result.exported.filter((item) => item.withheld).length;
  const lines = [
    `exported ${counted(result.exported.length, 'recording')} to ${displayPath(outDir, context.cwd)}, masked${withheld > 0 ? ` (${withheld} metadata_only: usage and latencies only)` : ''}`,
  ];
  if (result.without_recording.length > 0) lines.push(`no recording for: ${result.without_recording.join(', ')}`);
  context.output.out(`${lines.join('\n')}\n`);
  return 0;
}

