import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureRepeatedly, type CommandMeasurement, type CommandToMeasure, type RepeatedMeasurement } from './measure-command.js';
import { assertEveryScenarioPassed } from './replay-report-check.js';
import type { SyntheticSuite } from './synthetic-suite.js';

/** The `parley` bin a user runs (never a dist file directly: the bin is what ships). */
const PARLEY_BIN = fileURLToPath(new URL('../../../apps/cli/bin/parley.js', import.meta.url));

/**
 * The environment of a measured child: this process's, without colour and without the CI step
 * summary (a benchmark run must not append to the summary of the CI job running it).
 */
export function benchChildEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extra };
  delete env.GITHUB_STEP_SUMMARY;
  delete env.FORCE_COLOR;
  return env;
}

/** The replay floor (replay-floor.ts, compiled beside this file). */
const FLOOR_SCRIPT = fileURLToPath(new URL('./replay-floor.js', import.meta.url));

/** `node -e 0`: Node's own start-up, the floor of every command's. */
export function nodeStartupCommand(cwd: string): CommandToMeasure {
  return { argv: [process.execPath, '-e', '0'], cwd, env: benchChildEnvironment() };
}

/** `parley --help`: every command registered, none of their libraries loaded. */
export function parleyHelpCommand(cwd: string, logFile?: string): CommandToMeasure {
  return { argv: [process.execPath, PARLEY_BIN, '--help'], cwd, env: benchChildEnvironment(), ...(logFile ? { logFile } : {}) };
}

/** `parley validate SUITE`. */
export function parleyValidateCommand(suiteDir: string, cwd: string, logFile?: string): CommandToMeasure {
  return { argv: [process.execPath, PARLEY_BIN, 'validate', suiteDir], cwd, env: benchChildEnvironment(), ...(logFile ? { logFile } : {}) };
}

/** The replay floor of `suiteDir` into `outDir` (its report.json has one passing result per scenario). */
export function replayFloorCommand(suiteDir: string, outDir: string, cwd: string, logFile?: string): CommandToMeasure {
  return { argv: [process.execPath, FLOOR_SCRIPT, suiteDir, outDir], cwd, env: benchChildEnvironment(), ...(logFile ? { logFile } : {}) };
}

/** `parley --version`: the start-up cost of the bin, with no suite loaded. */
export function parleyVersionCommand(cwd: string, logFile?: string): CommandToMeasure {
  return { argv: [process.execPath, PARLEY_BIN, '--version'], cwd, env: benchChildEnvironment(), ...(logFile ? { logFile } : {}) };
}

export interface ParleyReplayPaths {
  /** Working directory of the run: its `.parley/parley.db` lands here, not in the project. */
  cwd: string;
  /** `--out`: report.json, junit.xml, summary.md, events.jsonl. */
  outDir: string;
  logFile?: string;
  /** The run's history in this PostgreSQL database (PARLEY_DATABASE_URL); in `cwd`'s SQLite file when absent. */
  databaseUrl?: string;
}

export function parleyReplayCommand(suiteDir: string, paths: ParleyReplayPaths): CommandToMeasure {
  const env = benchChildEnvironment(paths.databaseUrl === undefined ? {} : { PARLEY_DATABASE_URL: paths.databaseUrl });
  // A SQLite replay is one even when the benchmark itself was started with a team store set.
  if (paths.databaseUrl === undefined) delete env.PARLEY_DATABASE_URL;
  return {
    argv: [process.execPath, PARLEY_BIN, 'run', suiteDir, '--mode', 'replay', '--out', paths.outDir],
    cwd: paths.cwd,
    env,
    ...(paths.logFile ? { logFile: paths.logFile } : {}),
  };
}

/**
 * Replays a synthetic suite `runs` times through the real bin, each run into its own out folder
 * under `workDir` (which is also the working directory), and checks after every run that it
 * exited 0 with every scenario passing.
 */
export async function measureParleyReplay(suite: SyntheticSuite, workDir: string, runs: number): Promise<RepeatedMeasurement> {
  mkdirSync(workDir, { recursive: true });
  const paths = (run: number): ParleyReplayPaths => ({ cwd: workDir, outDir: join(workDir, 'runs', String(run)), logFile: join(workDir, `run-${run}.log`) });
  return measureRepeatedly((run) => parleyReplayCommand(suite.dir, paths(run)), {
    runs,
    afterRun: (measurement, run) => {
      const { outDir, logFile } = paths(run);
      assertExitedCleanly(measurement, `parley run (${suite.scenarioIds.length} scenarios, run ${run})`, logFile);
      assertEveryScenarioPassed(join(outDir, 'report.json'), suite.scenarioIds);
    },
  });
}

/** Throws with the tail of the command's log unless it exited 0. */
export function assertExitedCleanly(measurement: CommandMeasurement, what: string, logFile: string | undefined): void {
  if (measurement.exitCode === 0) return;
  const how = measurement.signal ? `was killed by ${measurement.signal}` : `exited ${measurement.exitCode}`;
  const tail = logFile !== undefined && existsSync(logFile) ? `\n${readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n')}` : '';
  throw new Error(`${what} ${how}${tail}`);
}
