import { resolve } from 'node:path';
import { ConfigError, terminalSafe, displayPath } from '@parley/core';
import { Option, type Command } from 'commander';
import { parleyIn, type CommandContext, type ProgramContext } from '../program/command-context.js';
import { printIssues } from '../output/config-error-output.js';
import { integerFlag } from '../program/flags.js';
import { interruptedExit } from '../program/interrupted-exit.js';
import { counted, paint } from '../output/output.js';
import { fitLine, hangingWrap } from '../output/text-wrap.js';

interface GenerateFlags {
  from?: string;
  fromDataset?: string;
  count?: string;
  language?: string;
  agent?: string;
  suite?: string;
  out?: string;
  mode?: 'replay' | 'live' | 'record';
  format?: 'text' | 'json';
}

/** Drafts asked for with `--from` when `--count` is not given. */
const DEFAULT_DRAFT_COUNT = 5;

/** Adds `parley generate` to the program. */
export function register(program: Command, context: ProgramContext): void {
  program
    .command('generate')
    .description('draft gate: advisory scenarios from a description (with the simulator model) or from recorded dialogues (SGD, production logs)')
    .option('--from <text>', 'a description of the agent and what to test: the simulator model drafts scenarios from it')
    .option('--from-dataset <file>', 'dialogues to turn into scripted scenarios: SGD JSON, or a JSON-lines conversation log')
    .option('--count <n>', `how many scenarios (--from: default ${DEFAULT_DRAFT_COUNT}; --from-dataset: the first N, default all)`)
    .option('--language <code>', 'ISO 639 code of the drafted scenarios (--from), e.g. sw, zu, en')
    .option('--agent <name>', "the suite's agent the scenarios are for (default: the suite's only agent)")
    .option('--suite <dir>', 'the suite the scenarios are for', '.')
    .option('--out <dir>', 'where scenario files go (default <suite>/scenarios/generated or scenarios/from_dataset)')
    .addOption(new Option('--mode <mode>', '--from: replay (default when its recording exists), live or record').choices(['replay', 'live', 'record']))
    .addOption(new Option('--format <format>', 'text, or json on stdout').choices(['text', 'json']))
    .action(async (flags: GenerateFlags) => context.setExitCode(await generateCommand(flags, context)))
    .exitOverride();
}

/**
 * `parley generate`. Exit 0 when every scenario asked for was written (datasets: also when some
 * were already there and skipped), 1 when the model could not be reached or some drafts stayed
 * invalid (the valid ones are written), 2 for bad input (nothing written).
 */
async function generateCommand(flags: GenerateFlags, context: CommandContext): Promise<number> {
  if ((flags.from === undefined) === (flags.fromDataset === undefined)) {
    throw new ConfigError('parley generate needs one of --from TEXT (a description) or --from-dataset FILE (dialogues)');
  }
  const count = flags.count !== undefined ? integerFlag('--count', flags.count, 1, 100) : undefined;
  if (flags.fromDataset !== undefined && flags.language !== undefined) throw new ConfigError('--language is for --from: a dataset keeps the language of its dialogues');
  if (flags.fromDataset !== undefined && flags.mode !== undefined) throw new ConfigError('--mode is for --from: --from-dataset calls no model');
  if (flags.language !== undefined && !/^[a-z]{2,3}$/.test(flags.language)) throw new ConfigError(`--language ${flags.language}: use an ISO 639 code such as en, sw or zu`);

  const { loadSuiteForRun } = await import('@parley/runner');
  const generate = await import('@parley/generate');
  const suite = loadSuiteForRun(resolve(context.cwd, flags.suite ?? '.'));
  printIssues(context.output, suite.warnings.filter((issue) => !isNoScenariosWarning(issue.message)), context.cwd);
  const shown = (file: string) => displayPath(file, context.cwd);
  const outDir = flags.out !== undefined ? resolve(context.cwd, flags.out) : undefined;
  const suiteArgument = displayPath(suite.dir, context.cwd);

  if (flags.fromDataset !== undefined) {
    const { suiteRedactor } = await import('@parley/redaction');
    const file = resolve(context.cwd, flags.fromDataset);
    const result = generate.generateFromDataset({
      suite,
      file,
      shownFile: shown(file),
      ...(count !== undefined ? { count } : {}),
      ...(flags.agent !== undefined ? { agent: flags.agent } : {}),
      ...(outDir !== undefined ? { outDir } : {}),
      redactor: suiteRedactor(suite, { env: context.env }),
      now: context.clock.now(),
      displayPath: shown,
    });
    if (flags.format === 'json') {
      context.output.out(`${JSON.stringify({ ...result, scenarios_dir: shown(result.scenarios_dir), written: result.written.map((item) => ({ ...item, file: shown(item.file) })) }, null, 2)}\n`);
      return 0;
    }
    const format = result.format === 'sgd' ? 'SGD dialogues' : 'conversation log';
    context.output.out(render(context, {
      headline: `wrote ${counted(result.written.length, 'scripted scenario')} from the ${format} into ${shown(result.scenarios_dir)} (gate: advisory)`,
      written: result.written,
      problems: result.skipped.map((item) => ({ label: 'skipped', text: `${item.source}: ${item.reason}` })),
      footer: result.written.length > 0 ? [`next: review the files, then \`${parleyIn(context)} validate ${suiteArgument}\` and record them: \`${parleyIn(context)} run ${suiteArgument} --tag from_dataset --mode record\``] : [],
    }));
    return 0;
  }

  const recordCommand = `${parleyIn(context)} generate --suite ${suiteArgument} --from ${shellQuote(flags.from!)}${count !== undefined ? ` --count ${count}` : ''}${flags.language !== undefined ? ` --language ${flags.language}` : ''}${flags.agent !== undefined ? ` --agent ${flags.agent}` : ''} --mode record`;
  const result = await generate.generateFromDescription(
    {
      suite,
      description: flags.from!,
      count: count ?? DEFAULT_DRAFT_COUNT,
      ...(flags.language !== undefined ? { language: flags.language } : {}),
      ...(flags.agent !== undefined ? { agent: flags.agent } : {}),
      ...(outDir !== undefined ? { outDir } : {}),
      ...(flags.mode !== undefined ? { mode: flags.mode } : {}),
      recordCommand,
      displayPath: shown,
    },
    { env: context.env, clock: context.clock, ...(context.signal ? { signal: context.signal } : {}) },
  );
  const asked = count ?? DEFAULT_DRAFT_COUNT;
  if (result.written.length === 0 && context.signal?.aborted) {
    // Ctrl-C / SIGTERM aborted the call in flight: an interruption (130 / 143), not a failed draft (1).
    context.output.err(`interrupted (${String(context.signal.reason ?? 'SIGINT')}): nothing was written\n`);
    return interruptedExit(context.signal);
  }
  const exitCode = result.error !== undefined || result.written.length < asked ? 1 : 0;
  if (flags.format === 'json') {
    context.output.out(
      `${JSON.stringify(
        {
          ...result,
          recording_file: shown(result.recording_file),
          scenarios_dir: shown(result.scenarios_dir),
          written: result.written.map((item) => ({ ...item, file: shown(item.file) })),
          exit_code: exitCode,
        },
        null,
        2,
      )}\n`,
    );
    return exitCode;
  }
  const colors = paint(context.output.color);
  if (result.error !== undefined) {
    context.output.err(`${colors.status('error', 'error')}: ${result.error.kind}: ${terminalSafe(result.error.message)}\n${result.error.details !== undefined ? `${terminalSafe(result.error.details)}\n` : ''}nothing was written\n`);
    return exitCode;
  }
  const recording =
    result.mode === 'replay'
      ? `replayed from ${shown(result.recording_file)}`
      : result.recording?.written
        ? `recorded to ${shown(result.recording_file)}`
        : result.recording !== undefined
          ? `not recorded (a call failed): ${shown(result.recording_file)} is unchanged`
          : 'live, not recorded';
  const cost = result.cost_usd === null ? 'cost unknown' : `$${result.cost_usd.toFixed(4)}`;
  context.output.out(render(context, {
    headline: `drafted ${counted(result.written.length, 'scenario')} of ${asked} into ${shown(result.scenarios_dir)} (gate: advisory)`,
    written: result.written,
    problems: [
      ...result.rejected.map((item) => ({ label: 'rejected', text: `draft ${item.position}${item.id !== undefined ? ` (${item.id})` : ''}: ${item.problems.join('; ')}` })),
      ...(result.missing > 0 ? [{ label: 'missing', text: `the model wrote ${asked - result.missing} of ${asked} drafts` }] : []),
    ],
    footer: [
      `${result.provider}:${result.model} · ${result.mode} · ${counted(result.calls, 'call')}${result.repaired > 0 ? ` (${counted(result.repaired, 'draft')} repaired)` : ''} · ${cost} · ${recording}`,
      ...(result.written.length > 0 ? [`next: review the files, then \`${parleyIn(context)} validate ${suiteArgument}\` and record them: \`${parleyIn(context)} run ${suiteArgument} --tag generated --mode record\``] : []),
    ],
  }));
  return exitCode;
}

interface Rendered {
  headline: string;
  written: ReadonlyArray<{ id: string; file: string; source: string; title: string; renamed_from?: string }>;
  problems: ReadonlyArray<{ label: string; text: string }>;
  footer: string[];
}

/** The summary: a headline, one row per written file (id, where from, title), problems, next steps; fits the terminal's width. */
function render(context: CommandContext, rendered: Rendered): string {
  const colors = paint(context.output.color);
  const width = Math.max(40, context.output.columns - 1);
  const lines = hangingWrap(rendered.headline, width, '  ').map((part) => colors.bold(part));
  const idWidth = Math.min(32, Math.max(2, ...rendered.written.map((item) => item.id.length)));
  const sourceWidth = Math.min(24, Math.max(4, ...rendered.written.map((item) => item.source.length)));
  if (rendered.written.length > 0) lines.push(colors.dim(`  ${'id'.padEnd(idWidth)}  ${'from'.padEnd(sourceWidth)}  title`));
  for (const item of rendered.written) {
    const row = `  ${fitLine(item.id, idWidth).padEnd(idWidth)}  ${fitLine(item.source, sourceWidth).padEnd(sourceWidth)}  ${terminalSafe(item.title.replace(/\s+/g, ' '))}`;
    lines.push(fitLine(row, width).replace(item.id, colors.status('pass', item.id)));
    if (item.renamed_from !== undefined) lines.push(colors.dim(fitLine(`    id "${item.renamed_from}" was taken: written as ${item.id}`, width)));
  }
  for (const problem of rendered.problems) {
    const [first = '', ...rest] = hangingWrap(`${problem.label}  ${terminalSafe(problem.text)}`, width - 2, '  ').map((part) => `  ${part}`);
    lines.push(first.replace(problem.label, colors.status(problem.label === 'skipped' ? 'skipped' : 'fail', problem.label)), ...rest);
  }
  for (const line of rendered.footer) lines.push(...hangingWrap(line, width, '  ').map((part) => colors.dim(part)));
  return `${lines.join('\n')}\n`;
}

function isNoScenariosWarning(message: string): boolean {
  return message.startsWith('no scenario files match');
}

function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

