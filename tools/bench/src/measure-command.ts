import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { USAGE_FILE_VARIABLE, usagePreloadPath, type ChildUsage } from './resource-usage-preload.js';

export interface CommandToMeasure {
  /**
   * Program and arguments. When the program is Node (`node` or `process.execPath`), the child is
   * started with `--require` of the resource-usage preload, and its peak RSS and CPU time are reported.
   */
  argv: string[];
  cwd: string;
  /** The child's whole environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Receives the command's stdout and stderr (default: discarded). Opened for appending. */
  logFile?: string;
}

export interface CommandMeasurement {
  /** From spawn to exit, by the monotonic high-resolution clock. */
  wallSeconds: number;
  /** The child's peak resident set size; undefined for a non-Node program or a child killed before its exit handlers ran. */
  peakRssKiB: number | undefined;
  /** The child's user plus system CPU time; undefined when the peak RSS is. */
  cpuSeconds: number | undefined;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

/** Runs a command once and measures it. Rejects only when it cannot be started. */
export async function measureCommand(command: CommandToMeasure): Promise<CommandMeasurement> {
  const [program, ...args] = command.argv;
  if (program === undefined) throw new TypeError('measureCommand needs a program to run');
  const isNode = program === process.execPath || basename(program) === 'node';
  const usageFolder = isNode ? mkdtempSync(join(tmpdir(), 'parley-bench-usage-run-')) : undefined;
  const usageFile = usageFolder === undefined ? undefined : join(usageFolder, 'usage.json');
  const env = { ...(command.env ?? process.env), ...(usageFile === undefined ? {} : { [USAGE_FILE_VARIABLE]: usageFile }) };
  const childArgs = isNode ? ['--require', usagePreloadPath(), ...args] : args;
  const log = command.logFile === undefined ? 'ignore' : openSync(command.logFile, 'a');
  try {
    const started = process.hrtime.bigint();
    const child = spawn(program, childArgs, { cwd: command.cwd, env, stdio: ['ignore', log, log] });
    const { exitCode, signal } = await new Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, exitSignal) => resolve({ exitCode: code, signal: exitSignal }));
    });
    const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const usage = usageFile !== undefined && existsSync(usageFile) ? parseUsage(readFileSync(usageFile, 'utf8')) : undefined;
    return {
      wallSeconds,
      peakRssKiB: usage?.maxRssKiB,
      cpuSeconds: usage === undefined ? undefined : (usage.userCpuMicros + usage.systemCpuMicros) / 1e6,
      exitCode,
      signal,
    };
  } finally {
    if (typeof log === 'number') closeSync(log);
    if (usageFolder !== undefined) rmSync(usageFolder, { recursive: true, force: true });
  }
}

function parseUsage(text: string): ChildUsage {
  const value: unknown = JSON.parse(text);
  if (typeof value === 'object' && value !== null && 'maxRssKiB' in value && 'userCpuMicros' in value && 'systemCpuMicros' in value) {
    const { maxRssKiB, userCpuMicros, systemCpuMicros } = value;
    if (typeof maxRssKiB === 'number' && typeof userCpuMicros === 'number' && typeof systemCpuMicros === 'number') return { maxRssKiB, userCpuMicros, systemCpuMicros };
  }
  throw new Error(`the resource usage preload wrote an unexpected value: ${text}`);
}

export interface RepeatedMeasurement {
  /** Median wall time of the runs: robust to one slow outlier (a cold cache, a busy neighbour). */
  wallSeconds: number;
  /** The largest peak RSS of the runs: memory targets are about the worst case. */
  peakRssKiB: number | undefined;
  /** Median CPU time (user + system) of the runs. */
  cpuSeconds: number | undefined;
  runs: CommandMeasurement[];
}

export interface RepeatOptions {
  runs?: number;
  /** Checks a run's outcome (exit code, reports) before the next one starts; throw to stop. */
  afterRun?: (measurement: CommandMeasurement, run: number) => void;
}

/**
 * Measures a command `runs` times (default 3), one after the other. `command` may be a function of
 * the run number (1-based) so that each run can get its own output folder.
 */
export async function measureRepeatedly(
  command: CommandToMeasure | ((run: number) => CommandToMeasure),
  options: RepeatOptions = {},
): Promise<RepeatedMeasurement> {
  const runCount = options.runs ?? 3;
  if (!Number.isInteger(runCount) || runCount < 1) throw new RangeError(`runs must be a positive integer, got ${runCount}`);
  const runs: CommandMeasurement[] = [];
  for (let run = 1; run <= runCount; run += 1) {
    const measurement = await measureCommand(typeof command === 'function' ? command(run) : command);
    options.afterRun?.(measurement, run);
    runs.push(measurement);
  }
  return summarizeMeasurements(runs);
}

/** The median wall and CPU time and the largest peak RSS of runs measured one by one (e.g. interleaved with others). */
export function summarizeMeasurements(runs: CommandMeasurement[]): RepeatedMeasurement {
  if (runs.length === 0) throw new RangeError('no runs to summarize');
  const rss = runs.map((measurement) => measurement.peakRssKiB);
  const cpu = runs.map((measurement) => measurement.cpuSeconds);
  return {
    wallSeconds: median(runs.map((measurement) => measurement.wallSeconds)),
    peakRssKiB: rss.every((value): value is number => value !== undefined) ? Math.max(...rss) : undefined,
    cpuSeconds: cpu.every((value): value is number => value !== undefined) ? median(cpu) : undefined,
    runs,
  };
}

/**
 * The middle value (the mean of the two middle values for an even count).
 *
 * @example median([3, 1, 2]) === 2
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((left, right) => left - right);
  const upper = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  const lower = sorted[Math.ceil(sorted.length / 2) - 1] ?? Number.NaN;
  return (lower + upper) / 2;
}
