import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { measureRepeatedly, type CommandToMeasure, type RepeatedMeasurement } from './measure-command.js';
import { assertExitedCleanly, benchChildEnvironment } from './parley-workload.js';
import { syntheticConversation } from './synthetic-conversation.js';

/** The promptfoo release the figures are compared with; pinned so results stay comparable. */
export const PROMPTFOO_VERSION = '0.121.20';

/** Maximum parallel test cases, as Parley's default concurrency. */
const PROMPTFOO_CONCURRENCY = 4;

/**
 * Where promptfoo is installed: outside the project (it is never a project dependency), kept
 * across benchmark runs because installing it takes about a minute.
 */
function promptfooInstallDir(): string {
  return join(tmpdir(), 'parley-bench-promptfoo');
}

export type PromptfooInstall = { entry: string; version: string } | { error: string };

/**
 * The JavaScript entry of an installed promptfoo of the pinned version, installing it with npm
 * into `installDir` first when it is missing. An install failure is a value: the benchmark then
 * goes on with Parley's own figures.
 */
export async function ensurePromptfoo(installDir: string = promptfooInstallDir(), log: (line: string) => void = () => {}): Promise<PromptfooInstall> {
  const installed = installedPromptfoo(installDir);
  if (installed) return installed;
  mkdirSync(installDir, { recursive: true });
  const logFile = join(installDir, 'install.log');
  log(`installing promptfoo@${PROMPTFOO_VERSION} into ${installDir} (once; log in ${logFile})`);
  const output = openSync(logFile, 'w');
  let exitCode: number | null;
  try {
    exitCode = await new Promise<number | null>((resolveExit) => {
      const child = spawn('npm', ['install', '--prefix', installDir, `promptfoo@${PROMPTFOO_VERSION}`, '--no-audit', '--no-fund', '--save-exact'], {
        cwd: installDir,
        stdio: ['ignore', output, output],
        env: benchChildEnvironment(),
      });
      child.once('error', () => resolveExit(null));
      child.once('exit', (code) => resolveExit(code));
    });
  } finally {
    closeSync(output);
  }
  const after = installedPromptfoo(installDir);
  if (after) return after;
  const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-5).join('\n') : '';
  return { error: `npm install promptfoo@${PROMPTFOO_VERSION} ${exitCode === null ? 'could not start' : `exited ${exitCode}`}${tail ? `:\n${tail}` : ''}` };
}

function installedPromptfoo(installDir: string): { entry: string; version: string } | undefined {
  const manifestPath = join(installDir, 'node_modules', 'promptfoo', 'package.json');
  if (!existsSync(manifestPath)) return undefined;
  const manifest: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
  if (typeof manifest !== 'object' || manifest === null || !('version' in manifest) || manifest.version !== PROMPTFOO_VERSION) return undefined;
  const bin = 'bin' in manifest ? manifest.bin : undefined;
  const relativeEntry = typeof bin === 'string' ? bin : typeof bin === 'object' && bin !== null && 'promptfoo' in bin ? bin.promptfoo : undefined;
  if (typeof relativeEntry !== 'string') return undefined;
  return { entry: resolve(dirname(manifestPath), relativeEntry), version: PROMPTFOO_VERSION };
}

/**
 * The environment of a measured promptfoo: no telemetry, update check, sharing or remote
 * generation, its database and logs in `configDir` instead of the user's home.
 */
function promptfooEnvironment(configDir: string): NodeJS.ProcessEnv {
  return benchChildEnvironment({
    PROMPTFOO_CONFIG_DIR: configDir,
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_DISABLE_SHARING: '1',
    PROMPTFOO_DISABLE_REMOTE_GENERATION: '1',
    PROMPTFOO_DISABLE_REDTEAM_REMOTE_GENERATION: '1',
    PROMPTFOO_DISABLE_RUNTIME_WARNINGS: '1',
    PROMPTFOO_SELF_HOSTED: '1',
  });
}

/**
 * Writes promptfoo's side of the comparison: `count` single-turn test cases (the synthetic
 * scenarios' opening lines) against the built-in `echo` provider, each with a `contains`
 * assertion that holds. Returns the config path.
 */
export function writePromptfooSuite(dir: string, count: number): string {
  mkdirSync(dir, { recursive: true });
  const lines = ['description: parley-bench echo workload', 'prompts:', '  - "Customer: {{message}}"', 'providers:', '  - echo', 'tests:'];
  for (let index = 1; index <= count; index += 1) {
    const opening = syntheticConversation(index).userTurns[0] ?? '';
    lines.push(`  - vars: { message: ${JSON.stringify(opening)} }`, `    assert: [{ type: contains, value: ${JSON.stringify(`(request ${index})`)} }]`);
  }
  const configPath = join(dir, 'promptfooconfig.yaml');
  writeFileSync(configPath, `${lines.join('\n')}\n`);
  return configPath;
}

export function promptfooVersionCommand(entry: string, configDir: string, cwd: string, logFile?: string): CommandToMeasure {
  return { argv: [process.execPath, entry, '--version'], cwd, env: promptfooEnvironment(configDir), ...(logFile ? { logFile } : {}) };
}

export function promptfooEvalCommand(entry: string, configPath: string, configDir: string, cwd: string, resultsFile: string, logFile?: string): CommandToMeasure {
  return {
    argv: [
      process.execPath,
      entry,
      'eval',
      '-c',
      configPath,
      '--no-cache',
      '--no-progress-bar',
      '--no-table',
      '--no-share',
      '-j',
      String(PROMPTFOO_CONCURRENCY),
      '-o',
      resultsFile,
    ],
    cwd,
    env: promptfooEnvironment(configDir),
    ...(logFile ? { logFile } : {}),
  };
}

/**
 * Runs promptfoo's eval of `count` echo test cases `runs` times and checks after each run that it
 * exited 0 and that its results file counts every test case as a success (so a silently skipped
 * eval is not timed).
 *
 * The check reads the `-o` results file, not the console: at 10,000 test cases promptfoo 0.121
 * exits before its logger has flushed (it prints "closeLogger() timed out during shutdown"), and
 * the console summary is lost although every result was written. The results file is also the
 * counterpart of the report.json that every Parley run writes.
 */
export async function measurePromptfooEval(entry: string, count: number, workDir: string, runs: number): Promise<RepeatedMeasurement> {
  const configPath = writePromptfooSuite(join(workDir, 'suite'), count);
  const configDir = join(workDir, 'promptfoo-home');
  mkdirSync(configDir, { recursive: true });
  const logFile = (run: number): string => join(workDir, `eval-${run}.log`);
  const resultsFile = (run: number): string => join(workDir, `results-${run}.json`);
  return measureRepeatedly((run) => promptfooEvalCommand(entry, configPath, configDir, workDir, resultsFile(run), logFile(run)), {
    runs,
    afterRun: (measurement, run) => {
      assertExitedCleanly(measurement, `promptfoo eval (${count} tests, run ${run})`, logFile(run));
      const successes = promptfooSuccesses(resultsFile(run));
      if (successes !== count) {
        const log = readFileSync(logFile(run), 'utf8');
        throw new Error(`promptfoo eval counted ${successes ?? 'no'} successes of ${count} tests:\n${log.trim().split('\n').slice(-8).join('\n')}`);
      }
    },
  });
}

/** `results.stats.successes` of a promptfoo JSON results file, when it has one. */
export function promptfooSuccesses(resultsFile: string): number | undefined {
  if (!existsSync(resultsFile)) return undefined;
  const output: unknown = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const results = isRecord(output) ? output.results : undefined;
  const stats = isRecord(results) ? results.stats : undefined;
  return isRecord(stats) && typeof stats.successes === 'number' ? stats.successes : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
