import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, displayPath } from '@parley/core';
import { counted } from '../output/counted.js';
import type {
  CalibrationFolder,
  CalibrationRaters,
  CalibrationSession,
  CalibrationStore,
  ImportResult,
  JudgeMode,
  JudgeSessionResult,
} from '@parley/calibration';
import { Option, type Command } from 'commander';
import { parleyIn, type CommandContext, type ProgramContext } from '../program/command-context.js';
import { integerFlag } from '../program/flags.js';
import type { ModelFlags } from './calibrate-suite.js';
import { paint, type Paint } from '../output/output.js';
import { ratingErrorLines } from '../output/rating-errors.js';

/** Options every calibrate subcommand shares. */
interface FolderFlags {
  dir: string;
  format?: 'text' | 'json';
}

interface CalibrateImportFlags extends FolderFlags {
  fromRun?: string;
  suite?: string;
  language?: string;
  vertical?: string;
  owner?: string;
}

interface CalibrateJudgeFlags extends FolderFlags, ModelFlags {
  mode?: JudgeMode;
  cache: boolean;
  concurrency?: string;
  resume?: string;
}

export interface CalibrateReportFlags extends FolderFlags, ModelFlags {
  minKappa: string;
  maxBias: string;
  session?: string;
  seed: string;
  resamples: string;
}

/** Adds `parley calibrate import|judge|report|status`: how far the judges agree with people. */
export function register(program: Command, context: ProgramContext): void {
  const calibrate = program
    .command('calibrate')
    .description('the calibration set: import conversations, have the judges rate them, and measure their agreement with people');
  const dirOption = (): Option => new Option('--dir <dir>', 'calibration folder (human_labelled.yaml, rubric.md, recordings/, reports/)').default('calibration');
  const formatOption = (): Option => new Option('--format <format>', 'text, or json on stdout').choices(['text', 'json']);
  const modelOptions = (command: Command): Command =>
    command
      .option('--suite <dir>', "a suite whose parley.yaml names the judges (judge.primary, judge.cross_check), prices and retries")
      .option('--judge <provider:model>', 'primary judge (default: the suite\'s, else anthropic:claude-opus-4-7)')
      .option('--cross-check <provider:model>', 'cross-check model (default: the suite\'s, else openai:gpt-4.1)');

  calibrate
    .command('import')
    .description('add masked conversations (JSON lines of the conversation log, or --from-run) as unrated items')
    .argument('[file]', 'conversation log: one JSON conversation per line (conversation_id, tenant, vertical, turns)')
    .addOption(dirOption())
    .option('--from-run <run_id>', "import a stored run's transcripts instead of a file")
    .option('--suite <dir>', "mask with this suite's redaction settings (identities, restricted verticals, extras)")
    .option('--language <code>', 'language of conversations that do not say (en, sw, …)')
    .option('--vertical <name>', 'vertical of conversations that do not say')
    .option('--owner <name>', 'owner of a new calibration set', 'calibration-owner')
    .addOption(formatOption())
    .action(async (file: string | undefined, flags: CalibrateImportFlags) => context.setExitCode(await calibrateImportCommand(file, flags, context)));

  modelOptions(
    calibrate
      .command('judge')
      .description('have the judge and the cross-check rate every item on every axis; stored as a session in .parley/parley.db')
      .addOption(dirOption())
      .addOption(new Option('--mode <mode>', 'replay (default when calibration/recordings/judge.jsonl exists), live or record').choices(['replay', 'live', 'record']))
      .option('--no-cache', 'ignore the judge cache (live mode)')
      .option('--concurrency <n>', 'ratings asked for at once', '4')
      .option('--resume <session>', 'finish an interrupted session: only the ratings it lacks are asked for')
      .addOption(formatOption()),
  ).action(async (flags: CalibrateJudgeFlags) => context.setExitCode(await calibrateJudgeCommand(flags, context)));

  modelOptions(
    calibrate
      .command('report')
      .description('agreement of the judges with people; writes reports/<date>.md and .json; exit 1 below the gate, 2 on a bad file')
      .addOption(dirOption())
      .option('--min-kappa <kappa>', "every axis's judge-vs-human quadratic kappa must reach this", '0.7')
      .option('--max-bias <points>', "every axis's |judge − human| mean may be at most this", '0.5')
      .option('--session <id>', 'report this judge session (default: the latest)')
      .option('--seed <n>', 'seed of the bootstrap', '1')
      .option('--resamples <n>', 'bootstrap resamples', '1000')
      .addOption(formatOption()),
    // Its own module, which imports what the report needs by name: the library's index reaches the
    // judges' providers, the importers' redaction and the set editor too.
  ).action(async (flags: CalibrateReportFlags) => context.setExitCode(await (await import('./calibrate-report.js')).calibrateReportCommand(flags, context)));

  calibrate
    .command('status')
    .description('items, ratings per reviewer, unrated items, and when the judges last ran')
    .addOption(dirOption())
    .addOption(formatOption())
    .action(async (flags: FolderFlags) => context.setExitCode(await calibrateStatusCommand(flags, context)));

  for (const command of [calibrate, ...calibrate.commands]) command.exitOverride();
}

async function folderOf(flags: FolderFlags, context: CommandContext): Promise<CalibrationFolder> {
  const { calibrationFolder } = await import('@parley/calibration');
  return calibrationFolder(flags.dir, context.cwd);
}

/** `parley calibrate import`: prints how many were added, skipped and refused (exit 0; 2 on bad input). */
async function calibrateImportCommand(file: string | undefined, flags: CalibrateImportFlags, context: CommandContext): Promise<number> {
  if ((file === undefined) === (flags.fromRun === undefined)) {
    throw new ConfigError('parley calibrate import needs a conversation log FILE or --from-run RUN_ID (one of them)');
  }
  const calibration = await import('@parley/calibration');
  const folder = await folderOf(flags, context);
  const { suiteOf } = await import('./calibrate-suite.js');
  const suite = await suiteOf(flags, context);
  const redactor = calibration.importRedactor(suite, context.env);
  const existingRubric = (() => {
    try {
      return calibration.loadRubric(folder.rubricFile).version;
    } catch {
      return '1.0.0';
    }
  })();

  let source: Parameters<typeof calibration.importConversations>[0]['source'];
  if (flags.fromRun !== undefined) {
    const { defaultStorePath, openStore, storeShownFor } = await import('@parley/store');
    const store = openStore(defaultStorePath(context.cwd));
    try {
      const run = store.getRun(flags.fromRun);
      if (run === undefined) throw new ConfigError(`no run "${flags.fromRun}" in ${storeShownFor(defaultStorePath(context.cwd), '.parley/parley.db')} (see \`${parleyIn(context)} runs list\`)`);
      source = { kind: 'run', runId: run.id, results: store.getScenarioResults(run.id) };
    } finally {
      store.close();
    }
  } else {
    const path = resolve(context.cwd, file!);
    source = { kind: 'log', path, shown: displayPath(path, context.cwd) };
  }

  const result = await calibration.importConversations({
    setFile: folder.setFile,
    source,
    redactor,
    ...(suite?.config.redaction !== undefined ? { redaction: suite.config.redaction } : {}),
    defaults: { ...(flags.language !== undefined ? { language: flags.language } : {}), ...(flags.vertical !== undefined ? { vertical: flags.vertical } : {}) },
    now: context.clock.now(),
    initialText: calibration.newCalibrationSetText({ rubricVersion: existingRubric, owner: flags.owner ?? 'calibration-owner' }),
    rubricFile: folder.rubricFile,
  });
  if (flags.format === 'json') {
    context.output.out(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  context.output.out(
    importSummary(result, { shown: displayPath(folder.setFile, context.cwd), exists: existsSync(folder.setFile) }, paint(context.output.color), (path) => displayPath(path, context.cwd), parleyIn(context)),
  );
  return 0;
}

/** Lines of one kind an import lists in full; a log of 20,000 conversations refused for one reason printed 20,000 lines. */
const IMPORT_LINES_SHOWN = 20;

function listedFirst(lines: readonly string[]): string[] {
  if (lines.length <= IMPORT_LINES_SHOWN) return [...lines];
  return [...lines.slice(0, IMPORT_LINES_SHOWN), `  … and ${lines.length - IMPORT_LINES_SHOWN} more (\`--format json\` lists every one)`];
}

function importSummary(result: ImportResult, setFile: { shown: string; exists: boolean }, colors: Paint, shown: (path: string) => string, parley: string): string {
  // With nothing added the set file is not written: say so rather than point at it as if it were.
  const where = result.added.length > 0 ? ` → ${setFile.shown}` : setFile.exists ? `: ${setFile.shown} unchanged` : `: nothing written (no ${setFile.shown} yet)`;
  const lines = [colors.bold(`${result.added.length} added, ${result.skipped.length} skipped, ${result.refused.length} refused${where}`)];
  lines.push(...listedFirst(result.added.map((item) => `  ${colors.status('pass', 'added')}    ${item.id}  ${item.origin}`)));
  lines.push(...listedFirst(result.skipped.map((item) => `  ${colors.status('skipped', 'skipped')}  ${item.origin}: ${item.reason}`)));
  lines.push(...listedFirst(result.refused.map((item) => `  ${colors.status('fail', 'refused')}  ${item.origin}: ${item.reason}`)));
  if (result.rubric !== undefined) lines.push(`wrote a starter rubric, ${shown(result.rubric)}: edit it to describe your agents before the first rating session`);
  if (result.added.length > 0) lines.push(colors.dim(`next: reviewers rate them (\`${parley} tui rate\`), then \`${parley} calibrate judge\` and \`${parley} calibrate report\``));
  return `${lines.join('\n')}\n`;
}

/** `parley calibrate judge`: exit 0 when every item got both ratings, 1 when some could not be rated, 2 on bad input. */
async function calibrateJudgeCommand(flags: CalibrateJudgeFlags, context: CommandContext): Promise<number> {
  const calibration = await import('@parley/calibration');
  const folder = await folderOf(flags, context);
  const { set, rubric } = calibration.loadCalibrationFolder(folder);
  const { ratersOf, suiteOf } = await import('./calibrate-suite.js');
  const suite = await suiteOf(flags, context);
  const raters = ratersOf(flags, suite);
  const concurrency = integerFlag('--concurrency', flags.concurrency ?? '4', 1);
  if (set.items.length === 0) throw new ConfigError({ file: folder.setFile, message: `the calibration set has no items: add some with \`${parleyIn(context)} calibrate import\`` });

  const { defaultStorePath, openJudgeCache } = await import('@parley/store');
  const store = calibration.openCalibrationStore(defaultStorePath(context.cwd));
  let resume: CalibrationSession | undefined;
  try {
    resume = flags.resume === undefined ? undefined : resumableSession(store, flags, folder.shown, raters, rubric.sha256, parleyIn(context));
  } catch (error) {
    store.close();
    throw error;
  }
  const mode: JudgeMode = resume?.mode ?? flags.mode ?? (calibration.hasRecording(folder) ? 'replay' : 'live');
  const cache = mode === 'live' && flags.cache ? openJudgeCache(defaultStorePath(context.cwd), () => context.clock.now()) : undefined;
  try {
    const result = await calibration.runJudgeSession(
      {
        set,
        setPath: folder.shown,
        rubric,
        raters,
        mode,
        recordingFile: folder.recordingFile,
        store,
        ...(cache ? { cache } : {}),
        concurrency,
        ...(suite?.config.pricing !== undefined ? { pricing: suite.config.pricing } : {}),
        resilience: calibration.resilienceOf(suite),
        ...(resume ? { resume } : {}),
      },
      {
        clock: context.clock,
        random: context.random,
        env: context.env,
        parleyCommand: () => parleyIn(context),
        ...(context.signal ? { signal: context.signal } : {}),
        // Progress on stderr, one line per stored rating (as `parley run` prints one per scenario).
        onRating: (rating, done, total) => context.output.err(`[${done}/${total}] ${rating.item_id} ${rating.rater === 'judge' ? 'judge' : 'cross-check'}${rating.error !== null ? ' error' : ''}\n`),
      },
    );
    if (flags.format === 'json') context.output.out(`${JSON.stringify(result, null, 2)}\n`);
    else context.output.out(judgeSummary(result, folder, context, paint(context.output.color)));
    if (result.interrupted_by !== undefined) return result.interrupted_by === 'SIGTERM' ? 143 : 130;
    return result.ratings.some((rating) => rating.error !== null) ? 1 : 0;
  } finally {
    cache?.close();
    store.close();
  }
}

/**
 * The session `--resume` names: of this folder, unfinished, with the same rubric and raters (a
 * session rated by other judges or another rubric would mix two measurements in one).
 */
function resumableSession(store: CalibrationStore, flags: CalibrateJudgeFlags, setPath: string, raters: CalibrationRaters, rubricSha: string, parley: string): CalibrationSession {
  const session = store.session(flags.resume!);
  const resume = `--resume ${flags.resume!}`;
  if (session === undefined) throw new ConfigError(`${resume}: no calibration session "${flags.resume!}" (${parley} calibrate status lists the latest)`);
  if (session.set_path !== setPath) throw new ConfigError(`${resume}: session ${session.id} rated ${session.set_path}, not ${setPath}; give --dir ${session.set_path}`);
  if (session.finished_at !== null) throw new ConfigError(`${resume}: session ${session.id} is finished; run ${parley} calibrate judge for a new one`);
  if (flags.mode !== undefined && flags.mode !== session.mode) throw new ConfigError(`${resume}: session ${session.id} was a ${session.mode} session; leave out --mode ${flags.mode}`);
  if (session.rubric_sha256 !== rubricSha) throw new ConfigError(`${resume}: the rubric changed since session ${session.id} started; run ${parley} calibrate judge for a new session`);
  for (const role of ['judge', 'cross_check'] as const) {
    const stored = session.raters[role];
    const given = raters[role];
    const shown = (model: { provider: string; model: string } | undefined) => (model === undefined ? 'none' : `${model.provider}:${model.model}`);
    if (shown(stored) !== shown(given)) throw new ConfigError(`${resume}: session ${session.id} was rated by ${role} ${shown(stored)}, not ${shown(given)}; give the same judges`);
  }
  return session;
}

function judgeSummary(result: JudgeSessionResult, folder: CalibrationFolder, context: CommandContext, colors: Paint): string {
  const { session } = result;
  const lines = [colors.bold(`judge session ${session.id} (${session.mode}): ${counted(session.items, 'item')} × ${counted(Object.keys(session.raters).length, 'rater')}`)];
  if (result.interrupted_by !== undefined) {
    const dir = folder.shown === 'calibration' ? '' : ` --dir ${folder.shown}`;
    lines.push(
      colors.status(
        'error',
        `INTERRUPTED (${result.interrupted_by}) · ${result.progress.rated} of ${result.progress.planned} ratings kept; the session is unfinished: calibrate report leaves it out unless given --session ${session.id}`,
      ),
    );
    lines.push(`finish it with: ${parleyIn(context)} calibrate judge${dir} --resume ${session.id}`);
  }
  for (const rater of ['judge', 'cross_check'] as const) {
    const model = session.raters[rater];
    if (model === undefined) continue;
    const mine = result.ratings.filter((rating) => rating.rater === rater);
    const rated = mine.filter((rating) => rating.scores !== null);
    const cached = rated.filter((rating) => rating.cached).length;
    const errors = mine.filter((rating) => rating.error !== null);
    const label = rater === 'judge' ? 'judge' : 'cross-check';
    lines.push(
      `  ${label} ${model.provider}:${model.model}: ${rated.length} rated${cached > 0 ? ` (${cached} from the judge cache)` : ''}, ` +
        (errors.length === 0 ? '0 errors' : colors.status('error', `${errors.length} errors`)),
    );
  }
  const failed = result.ratings.flatMap((rating) => (rating.error === null ? [] : [{ item_id: rating.item_id, rater: rating.rater, error: rating.error }]));
  lines.push(...ratingErrorLines(failed, folder.shown, parleyIn(context)).map((line, index) => (index === 0 ? colors.status('error', line) : colors.dim(line))));
  if (result.recording !== undefined) {
    const where = displayPath(result.recording.file, context.cwd);
    lines.push(result.recording.written ? `recording: ${where} (${counted(result.recording.calls, 'call')})` : colors.yellow(`recording not written: ${result.recording.reason}`));
  }
  const cost = result.cost_usd === null ? 'cost unknown (a model has no price)' : `$${result.cost_usd.toFixed(4)}`;
  lines.push(colors.dim(`tokens ${result.usage.input_tokens} in / ${result.usage.output_tokens} out · ${cost}`));
  lines.push(colors.dim(`next: ${parleyIn(context)} calibrate report${folder.shown === 'calibration' ? '' : ` --dir ${folder.shown}`}`));
  return `${lines.join('\n')}\n`;
}

/** `parley calibrate status`. */
async function calibrateStatusCommand(flags: FolderFlags, context: CommandContext): Promise<number> {
  const calibration = await import('@parley/calibration');
  const folder = await folderOf(flags, context);
  const set = calibration.loadCalibrationSet(folder.setFile);
  const { defaultStorePath } = await import('@parley/store');
  const store = calibration.openCalibrationStore(defaultStorePath(context.cwd));
  try {
    const status = calibration.calibrationStatus(folder, set, store, context.clock.now(), parleyIn(context));
    const { statusText } = await import('../output/calibration-tables.js');
    context.output.out(flags.format === 'json' ? `${JSON.stringify(status, null, 2)}\n` : statusText(status, paint(context.output.color)));
    return 0;
  } finally {
    store.close();
  }
}


