import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { USAGE_OWNER_VARIABLE } from './resource-usage-preload.js';
import { measureCommand, measureRepeatedly, median } from './measure-command.js';

const folders: string[] = [];
function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'parley-bench-measure-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Touches every page of a buffer so it is resident, not just reserved. */
const ALLOCATE_200_MIB = 'const buffer = Buffer.alloc(200 * 1024 * 1024); buffer.fill(1);';

describe('measureCommand', () => {
  it('measures a trivial node command: wall time, peak RSS and exit code', async () => {
    const result = await measureCommand({ argv: [process.execPath, '-e', 'process.exitCode = 0'], cwd: temporaryFolder() });
    expect(result.exitCode).toBe(0);
    expect(result.wallSeconds).toBeGreaterThan(0);
    expect(result.peakRssKiB).toBeGreaterThan(0);
    expect(result.cpuSeconds).toBeGreaterThan(0);
  });

  it("reports the child's CPU time", async () => {
    // The child burns CPU until its own clock says 0.3 s: the figure cannot be lower, however busy the machine.
    const spin = 'while (process.cpuUsage().user + process.cpuUsage().system < 300_000) {}';
    const result = await measureCommand({ argv: [process.execPath, '-e', spin], cwd: temporaryFolder() });
    expect(result.cpuSeconds).toBeGreaterThanOrEqual(0.3);
  });

  it("reports the child's own peak memory", async () => {
    const small = await measureCommand({ argv: [process.execPath, '-e', ''], cwd: temporaryFolder() });
    const large = await measureCommand({ argv: [process.execPath, '-e', ALLOCATE_200_MIB], cwd: temporaryFolder() });
    expect(small.peakRssKiB).toBeLessThan(150 * 1024);
    expect(large.peakRssKiB).toBeGreaterThan(200 * 1024);
  });

  it('keeps the figure of the measured process: a forked grandchild does not report', async () => {
    const folder = temporaryFolder();
    const grandchild = join(folder, 'grandchild.cjs');
    writeFileSync(grandchild, `${ALLOCATE_200_MIB} console.log(process.env.${USAGE_OWNER_VARIABLE} === String(process.pid) ? 'grandchild reports' : 'grandchild is not measured');`);
    // fork() passes the parent's execArgv, --require of the preload included, to the grandchild.
    const script = `require('node:child_process').fork(${JSON.stringify(grandchild)}).on('exit', (code) => { process.exitCode = code; });`;
    const logFile = join(folder, 'out.log');
    const result = await measureCommand({ argv: [process.execPath, '-e', script], cwd: folder, logFile });
    expect(result.exitCode).toBe(0);
    expect(readFileSync(logFile, 'utf8')).toBe('grandchild is not measured\n');
    expect(result.peakRssKiB).toBeLessThan(150 * 1024);
  });

  it('keeps measuring a process that replaces itself in place (process.execve, as the bin does on Node 24)', async () => {
    const script = `process.execve(process.execPath, [process.execPath, ...process.execArgv, '-e', ${JSON.stringify(ALLOCATE_200_MIB)}], process.env);`;
    const result = await measureCommand({ argv: [process.execPath, '-e', script], cwd: temporaryFolder() });
    expect(result.exitCode).toBe(0);
    expect(result.peakRssKiB).toBeGreaterThan(200 * 1024);
  });

  it('reports the exit code and no RSS for a program that is not node, and writes its output to the log', async () => {
    const folder = temporaryFolder();
    const logFile = join(folder, 'out.log');
    const result = await measureCommand({ argv: ['sh', '-c', 'echo hello; exit 3'], cwd: folder, logFile });
    expect(result.exitCode).toBe(3);
    expect(result.peakRssKiB).toBeUndefined();
    expect(result.cpuSeconds).toBeUndefined();
    expect(readFileSync(logFile, 'utf8')).toBe('hello\n');
  });

  it('rejects a program that cannot be started', async () => {
    await expect(measureCommand({ argv: [join(temporaryFolder(), 'missing-program')], cwd: temporaryFolder() })).rejects.toThrow(/ENOENT/);
  });
});

describe('measureRepeatedly', () => {
  it('runs the command the given number of times, checking each run, and keeps the largest RSS', async () => {
    const seen: number[] = [];
    const result = await measureRepeatedly(
      (run) => ({ argv: [process.execPath, '-e', run === 2 ? ALLOCATE_200_MIB : ''], cwd: temporaryFolder() }),
      { runs: 3, afterRun: (_measurement, run) => seen.push(run) },
    );
    expect(seen).toEqual([1, 2, 3]);
    expect(result.runs).toHaveLength(3);
    expect(result.peakRssKiB).toBe(result.runs[1]?.peakRssKiB);
    expect(result.wallSeconds).toBe(median(result.runs.map((run) => run.wallSeconds)));
  });

  it('stops at the first run the check refuses', async () => {
    let runs = 0;
    const attempt = measureRepeatedly(
      { argv: [process.execPath, '-e', 'process.exitCode = 1'], cwd: temporaryFolder() },
      {
        runs: 3,
        afterRun: (measurement) => {
          runs += 1;
          if (measurement.exitCode !== 0) throw new Error('run failed');
        },
      },
    );
    await expect(attempt).rejects.toThrow('run failed');
    expect(runs).toBe(1);
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5])).toBe(5);
  });

  it('refuses an empty list', () => {
    expect(() => median([])).toThrow(RangeError);
  });
});
