import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchOptions } from './bench-arguments.js';
import { measureCommand, measureRepeatedly, summarizeMeasurements, type CommandMeasurement, type CommandToMeasure, type RepeatedMeasurement } from './measure-command.js';
import {
  assertExitedCleanly,
  measureParleyReplay,
  nodeStartupCommand,
  parleyHelpCommand,
  parleyReplayCommand,
  parleyValidateCommand,
  parleyVersionCommand,
  replayFloorCommand,
} from './parley-workload.js';
import { assertEveryScenarioPassed } from './replay-report-check.js';
import { ensurePromptfoo, measurePromptfooEval, PROMPTFOO_VERSION, promptfooVersionCommand } from './promptfoo-workload.js';
import type { ResultRow } from './results-table.js';
import { writeSyntheticSuite } from './synthetic-suite.js';
import { describeTarget, REPLAY_TARGETS, verdictOf } from './targets.js';

/** Parley against promptfoo at one size: ratios above 1 mean promptfoo took more. */
interface Comparison {
  workload: string;
  count: number | null;
  parleyWallSeconds: number;
  promptfooWallSeconds: number;
  /** promptfoo's wall time divided by Parley's. */
  wallRatio: number;
  parleyPeakRssMiB: number | null;
  promptfooPeakRssMiB: number | null;
  /** promptfoo's peak RSS divided by Parley's; null when either is unknown. */
  rssRatio: number | null;
}

/** Parley against its floor (`--floor`): how many times the floor's wall time Parley takes. */
interface FloorComparison {
  workload: string;
  count: number | null;
  parleyWallSeconds: number;
  floorWallSeconds: number;
  /** Parley's wall time divided by the floor's (1 = as fast as the floor). */
  wallRatio: number;
  /** The same for CPU time; null when either is unknown. */
  cpuRatio: number | null;
}

export interface BenchReport {
  machine: { cpus: number; cpuModel: string; node: string; platform: string };
  /** The load average (1, 5, 15 minutes) when the benchmark started and ended: a busy machine's figures are slower. */
  loadAverage: { start: number[]; end: number[] };
  runs: number;
  rows: ResultRow[];
  comparisons: Comparison[];
  floorComparisons: FloorComparison[];
  /** Things the reader must know: a failed promptfoo install, a kept work folder. */
  notes: string[];
  /** Where the suites and run folders were (deleted unless `--keep`). */
  workDir: string;
}

/**
 * Runs the benchmark: Parley's start-up, then a replay of a synthetic suite per size, then the
 * same for promptfoo when asked. Suites are generated before their runs and generation is not
 * timed. Every run is checked (exit 0, every scenario passing) before its time is believed.
 */
export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<BenchReport> {
  const workDir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
  const rows: ResultRow[] = [];
  const comparisons: Comparison[] = [];
  const floorComparisons: FloorComparison[] = [];
  const notes: string[] = [];
  const loadAtStart = loadavg();
  try {
    log(`work folder ${workDir}`);
    let parleyStartup: RepeatedMeasurement;
    if (options.floor) {
      // Interleaved, one run of each in turn, so a machine whose speed drifts slows them alike.
      log(`start-up: node -e 0, parley --version, parley --help, interleaved ${options.runs}×`);
      const [node, version, help] = await measureInterleaved(
        [
          { what: 'node -e 0', command: () => nodeStartupCommand(workDir) },
          { what: 'parley --version', command: (run) => parleyVersionCommand(workDir, join(workDir, `parley-version-${run}.log`)) },
          { what: 'parley --help', command: (run) => parleyHelpCommand(workDir, join(workDir, `parley-help-${run}.log`)) },
        ],
        options.runs,
      );
      parleyStartup = version!;
      rows.push(row('node -e 0', null, null, node!), row('parley --version', null, null, version!), row('parley --help', null, null, help!));
      floorComparisons.push(floorComparison('parley --version / node -e 0', null, version!, node!), floorComparison('parley --help / node -e 0', null, help!, node!));
    } else {
      parleyStartup = await measureStartup('parley --version', (run) => parleyVersionCommand(workDir, join(workDir, `parley-version-${run}.log`)), options.runs, log);
      rows.push(row('parley --version', null, null, parleyStartup));
    }

    const parleyBySize = new Map<number, RepeatedMeasurement>();
    for (const size of options.sizes) {
      log(`generating ${size.toLocaleString('en-US')} synthetic scenarios (not timed)`);
      const generationStarted = process.hrtime.bigint();
      const suite = writeSyntheticSuite({ dir: join(workDir, `suite-${size}`), scenarioCount: size });
      log(`  written in ${(Number(process.hrtime.bigint() - generationStarted) / 1e9).toFixed(1)} s; replaying ${options.runs}×`);
      let measurement: RepeatedMeasurement;
      /** Rows printed below Parley's replay of this size: its floor, and validate of the same suite. */
      const afterParley: ResultRow[] = [];
      if (options.floor) {
        const parleyDir = join(workDir, `parley-${size}`);
        const floorDir = join(workDir, `floor-${size}`);
        mkdirSync(parleyDir, { recursive: true });
        const workloads: InterleavedWorkload[] = [
          {
            what: `parley run (${size} scenarios)`,
            command: (run) => parleyReplayCommand(suite.dir, { cwd: parleyDir, outDir: join(parleyDir, 'runs', String(run)), logFile: join(parleyDir, `run-${run}.log`) }),
            check: (run) => assertEveryScenarioPassed(join(parleyDir, 'runs', String(run), 'report.json'), suite.scenarioIds),
          },
          {
            what: `replay floor (${size} scenarios)`,
            command: (run) => replayFloorCommand(suite.dir, join(floorDir, String(run)), workDir, join(workDir, `floor-${size}-${run}.log`)),
            check: (run) => assertEveryScenarioPassed(join(floorDir, String(run), 'report.json'), suite.scenarioIds),
          },
        ];
        if (size === Math.min(...options.sizes)) {
          workloads.push({ what: `parley validate (${size} scenarios)`, command: (run) => parleyValidateCommand(suite.dir, workDir, join(workDir, `validate-${size}-${run}.log`)) });
        }
        const [parley, floor, validate] = await measureInterleaved(workloads, options.runs);
        measurement = parley!;
        afterParley.push(row('replay floor', size, suite.userTurnsPerScenario, floor!));
        floorComparisons.push(floorComparison('parley run --mode replay / floor', size, parley!, floor!));
        if (validate !== undefined) {
          afterParley.push(row('parley validate', size, null, validate));
          const node = rows.find((entry) => entry.workload === 'node -e 0');
          if (node !== undefined) {
            const nodeStartup: RepeatedMeasurement = { wallSeconds: node.wallSeconds, peakRssKiB: undefined, cpuSeconds: node.cpuSeconds ?? undefined, runs: [] };
            floorComparisons.push(floorComparison('parley validate / node -e 0', size, validate, nodeStartup));
            if (size === 1) floorComparisons.push(floorComparison('parley run --mode replay / node -e 0', size, parley!, nodeStartup));
          }
        }
      } else if (options.databaseUrl !== undefined) {
        // SQLite and PostgreSQL in turn, so a machine whose speed drifts slows them alike.
        const databaseUrl = options.databaseUrl;
        const sqliteDir = join(workDir, `parley-${size}-sqlite`);
        const pgDir = join(workDir, `parley-${size}-postgres`);
        mkdirSync(sqliteDir, { recursive: true });
        mkdirSync(pgDir, { recursive: true });
        const replayInto = (dir: string, url: string | undefined): InterleavedWorkload => ({
          what: `parley run (${size} scenarios, ${url === undefined ? 'SQLite' : 'PostgreSQL'})`,
          command: (run) =>
            parleyReplayCommand(suite.dir, { cwd: dir, outDir: join(dir, 'runs', String(run)), logFile: join(dir, `run-${run}.log`), ...(url === undefined ? {} : { databaseUrl: url }) }),
          check: (run) => assertEveryScenarioPassed(join(dir, 'runs', String(run), 'report.json'), suite.scenarioIds),
        });
        const [sqlite, postgres] = await measureInterleaved([replayInto(sqliteDir, undefined), replayInto(pgDir, databaseUrl)], options.runs);
        measurement = sqlite!;
        afterParley.push(row('parley run --mode replay (PostgreSQL store)', size, suite.userTurnsPerScenario, postgres!));
        floorComparisons.push(floorComparison('replay into PostgreSQL / into SQLite', size, postgres!, sqlite!));
      } else {
        measurement = await measureParleyReplay(suite, join(workDir, `parley-${size}`), options.runs);
      }
      parleyBySize.set(size, measurement);
      const target = REPLAY_TARGETS.get(size);
      rows.push({ ...row('parley run --mode replay', size, suite.userTurnsPerScenario, measurement), target: describeTarget(target), verdict: verdictOf(target, measurement.wallSeconds, mebibytes(measurement.peakRssKiB) ?? undefined) });
      rows.push(...afterParley);
    }

    if (options.promptfoo) {
      const install = await ensurePromptfoo(undefined, log);
      if ('error' in install) {
        notes.push(`promptfoo ${PROMPTFOO_VERSION} could not be installed, so only Parley was measured: ${install.error}`);
        log(notes[notes.length - 1] ?? '');
      } else {
        const home = join(workDir, 'promptfoo-version-home');
        mkdirSync(home, { recursive: true });
        const promptfooStartup = await measureStartup(
          'promptfoo --version',
          (run) => promptfooVersionCommand(install.entry, home, workDir, join(workDir, `promptfoo-version-${run}.log`)),
          options.runs,
          log,
        );
        rows.push(row('promptfoo --version', null, null, promptfooStartup));
        comparisons.push(compare('start-up (--version)', null, parleyStartup, promptfooStartup));
        for (const size of options.sizes) {
          log(`promptfoo eval: ${size.toLocaleString('en-US')} echo test cases, ${options.runs}×`);
          let measurement: RepeatedMeasurement;
          try {
            measurement = await measurePromptfooEval(install.entry, size, join(workDir, `promptfoo-${size}`), options.runs);
          } catch (error) {
            // The peer's failure is reported, not fatal: Parley's figures stand on their own.
            notes.push(`promptfoo eval of ${size} test cases failed: ${error instanceof Error ? error.message : String(error)}`);
            log(notes[notes.length - 1] ?? '');
            continue;
          }
          rows.push(row('promptfoo eval (echo)', size, 1, measurement));
          const parley = parleyBySize.get(size);
          if (parley) comparisons.push(compare('eval', size, parley, measurement));
        }
      }
    }
  } catch (error) {
    // The logs of the failed run are what the reader needs next: keep them.
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n(work folder with the suites and run logs kept: ${workDir})`, { cause: error });
  }
  if (options.keep) notes.push(`generated suites and run folders kept in ${workDir}`);
  else rmSync(workDir, { recursive: true, force: true });
  const cpuList = cpus();
  return {
    machine: { cpus: availableParallelism(), cpuModel: cpuList[0]?.model ?? 'unknown', node: process.version, platform: `${process.platform}-${process.arch}` },
    loadAverage: { start: loadAtStart, end: loadavg() },
    runs: options.runs,
    rows,
    comparisons,
    floorComparisons,
    notes,
    workDir,
  };
}

async function measureStartup(
  what: string,
  command: Parameters<typeof measureRepeatedly>[0],
  runs: number,
  log: (line: string) => void,
): Promise<RepeatedMeasurement> {
  log(`${what}, ${runs}×`);
  return measureRepeatedly(command, { runs, afterRun: (measurement, run) => assertExitedCleanly(measurement, `${what} (run ${run})`, undefined) });
}

interface InterleavedWorkload {
  what: string;
  command: (run: number) => CommandToMeasure;
  /** Checks a finished run (its report) before its time is believed; throws to stop. */
  check?: (run: number) => void;
}

/** Runs each workload once in turn, `runs` times over, and summarizes each workload's runs. */
async function measureInterleaved(workloads: readonly InterleavedWorkload[], runs: number): Promise<RepeatedMeasurement[]> {
  const measured: CommandMeasurement[][] = workloads.map(() => []);
  for (let run = 1; run <= runs; run += 1) {
    for (const [index, workload] of workloads.entries()) {
      const command = workload.command(run);
      const measurement = await measureCommand(command);
      assertExitedCleanly(measurement, `${workload.what} (run ${run})`, command.logFile);
      workload.check?.(run);
      measured[index]!.push(measurement);
    }
  }
  return measured.map(summarizeMeasurements);
}

function floorComparison(workload: string, count: number | null, parley: RepeatedMeasurement, floor: RepeatedMeasurement): FloorComparison {
  return {
    workload,
    count,
    parleyWallSeconds: parley.wallSeconds,
    floorWallSeconds: floor.wallSeconds,
    wallRatio: parley.wallSeconds / floor.wallSeconds,
    cpuRatio: parley.cpuSeconds === undefined || floor.cpuSeconds === undefined ? null : parley.cpuSeconds / floor.cpuSeconds,
  };
}

function row(workload: string, count: number | null, turns: number | null, measurement: RepeatedMeasurement): ResultRow {
  return { workload, count, turns, wallSeconds: measurement.wallSeconds, wallSecondsByRun: measurement.runs.map((run) => run.wallSeconds), peakRssMiB: mebibytes(measurement.peakRssKiB), cpuSeconds: measurement.cpuSeconds ?? null, target: '-', verdict: '-' };
}

function compare(workload: string, count: number | null, parley: RepeatedMeasurement, promptfoo: RepeatedMeasurement): Comparison {
  const parleyRss = mebibytes(parley.peakRssKiB);
  const promptfooRss = mebibytes(promptfoo.peakRssKiB);
  return {
    workload,
    count,
    parleyWallSeconds: parley.wallSeconds,
    promptfooWallSeconds: promptfoo.wallSeconds,
    wallRatio: promptfoo.wallSeconds / parley.wallSeconds,
    parleyPeakRssMiB: parleyRss,
    promptfooPeakRssMiB: promptfooRss,
    rssRatio: parleyRss === null || promptfooRss === null ? null : promptfooRss / parleyRss,
  };
}

function mebibytes(kibibytes: number | undefined): number | null {
  return kibibytes === undefined ? null : kibibytes / 1024;
}
