import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, isDiskFull } from '@parley/core';

/** The lock file a live run keeps in its report folder. */
export const OUT_DIR_LOCK = '.parley-run.lock';

/**
 * Makes a run's report folder ready and holds it for this run: the folder is created, must be
 * writable, and no other live run may write into it (two runs sharing `--out` interleaved their
 * `events.jsonl`). The lock file holds the pid and run id; a lock whose process is gone (a killed
 * run) is taken over. Every problem is a ConfigError of one line naming the folder.
 *
 * @returns a function that releases the folder (removes the lock file)
 */
export function claimOutDir(outDir: string, runId: string, isAlive: (pid: number) => boolean = processIsAlive): () => void {
  try {
    if (!statSync(outDir).isDirectory()) throw new ConfigError(`${outDir} is a file, not a folder: give --out a folder for the reports`);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new ConfigError(`cannot use ${outDir} for the reports: ${describeWriteError(error)} (choose another folder with --out)`);
  }
  // The first folder this creates (the report folder, or a parent of it), removed again when the folder cannot be claimed.
  let made: string | undefined;
  try {
    made = mkdirSync(outDir, { recursive: true });
  } catch (error) {
    throw new ConfigError(`cannot create the report folder ${outDir}: ${describeWriteError(mkdirError(outDir, error))} (choose another folder with --out)`);
  }
  const lock = join(outDir, OUT_DIR_LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    let descriptor: number;
    try {
      descriptor = openSync(lock, 'wx');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new ConfigError(`cannot write the reports to ${outDir}: ${describeWriteError(error)} (choose another folder with --out)`);
      const holder = lockHolder(lock);
      if (holder && isAlive(holder.pid)) {
        throw new ConfigError(`${outDir} is in use: run ${holder.runId} (pid ${holder.pid}) is writing its reports there; give this run another --out`);
      }
      rmSync(lock, { force: true }); // left by a run that was killed: take it over
      continue;
    }
    try {
      writeSync(descriptor, `${JSON.stringify({ pid: process.pid, run_id: runId })}\n`);
    } catch (error) {
      // A full disk: the folder is left as it was (a folder made here is removed again).
      rmSync(lock, { force: true });
      if (made !== undefined) rmSync(made, { recursive: true, force: true });
      throw new ConfigError(`cannot write the reports to ${outDir}: ${describeWriteError(error)}${isDiskFull(error) ? ': nothing was changed' : ''} (free some space, or choose another folder with --out)`);
    } finally {
      closeSync(descriptor);
    }
    return () => rmSync(lock, { force: true });
  }
  throw new ConfigError(`${outDir} is in use: another run took it at the same moment; give this run another --out`);
}

function lockHolder(lock: string): { pid: number; runId: string } | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lock, 'utf8')) as { pid?: unknown; run_id?: unknown };
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, runId: typeof parsed.run_id === 'string' ? parsed.run_id : 'unknown' } : undefined;
  } catch {
    return undefined; // half written or damaged: nobody can be shown to hold it
  }
}

/**
 * The real reason a recursive mkdir failed: on a read-only file system Node reports ENOENT for
 * it, so the first missing folder is created alone to get the file system's own answer.
 */
function mkdirError(outDir: string, error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return error;
  let missing = outDir;
  while (!existsSync(dirname(missing)) && dirname(missing) !== missing) missing = dirname(missing);
  try {
    mkdirSync(missing);
    rmSync(missing, { recursive: true, force: true });
    return error;
  } catch (direct) {
    return direct;
  }
}

function describeWriteError(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EROFS':
      return 'read-only file system';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'ENOSPC':
      return 'disk full';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/** Whether a process with this pid runs on this machine (signal 0 checks without signalling). */
function processIsAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists but belongs to another user
  }
}
