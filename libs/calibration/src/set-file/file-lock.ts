import { closeSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { DiskFullError, isDiskFull, writeAllSync } from '@parley/core';
import { hostname } from 'node:os';
import { processIsAlive } from './process-alive.js';

export interface FileLockOptions {
  /** Give up after this long (default 15 s): a save should take milliseconds. */
  timeoutMs?: number;
  /** How to wait between attempts; injected so tests never sleep. */
  wait?: (ms: number) => Promise<void>;
  /** Whether a process still runs (default: signal 0); injected for tests. */
  isAlive?: (pid: number) => boolean;
}

/** Another process holds the lock and did not let go in time. */
export class FileLockTimeout extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: string,
  ) {
    super(`${lockPath} is held by ${holder}; if no Parley process is saving, delete the lock file`);
    this.name = 'FileLockTimeout';
  }
}

const defaultWait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` while holding `lockPath`, a file created exclusively (O_EXCL) and removed afterwards.
 * It holds the owner's pid and host: a lock left by a process that no longer runs (killed mid-save)
 * is broken instead of blocking every later save. A lock of another host is never broken, since
 * its pid means nothing here; it times out with a message instead.
 */
export async function withFileLock<Result>(lockPath: string, work: () => Result | Promise<Result>, options: FileLockOptions = {}): Promise<Result> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const wait = options.wait ?? defaultWait;
  const isAlive = options.isAlive ?? processIsAlive;
  const token = `${process.pid}\n${hostname()}\n${new Date().toISOString()}\n`;
  let waited = 0;
  let pause = 5;
  for (;;) {
    if (tryCreate(lockPath, token)) break;
    const holder = readHolder(lockPath);
    if (holder === undefined) continue; // released between our attempt and the read
    if (holder.host === hostname() && !isAlive(holder.pid)) {
      breakStaleLock(lockPath, holder.text);
      continue;
    }
    if (waited >= timeoutMs) throw new FileLockTimeout(lockPath, `process ${holder.pid} on ${holder.host} since ${holder.since}`);
    await wait(pause);
    waited += pause;
    pause = Math.min(pause * 2, 25);
  }
  try {
    return await work();
  } finally {
    rmSync(lockPath, { force: true });
  }
}

function tryCreate(lockPath: string, token: string): boolean {
  let descriptor: number;
  try {
    descriptor = openSync(lockPath, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    if (isDiskFull(error)) throw new DiskFullError(lockPath);
    throw error;
  }
  try {
    writeAllSync(descriptor, token);
  } catch (error) {
    closeSync(descriptor);
    rmSync(lockPath, { force: true }); // half a token would read as a lock nobody holds
    if (isDiskFull(error)) throw new DiskFullError(lockPath);
    throw error;
  }
  closeSync(descriptor);
  return true;
}

interface LockHolder {
  pid: number;
  host: string;
  since: string;
  text: string;
}

function readHolder(lockPath: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const [pid = '', host = '', since = ''] = text.split('\n');
  if (text === '') {
    // Caught between its creation and its first write, its owner is alive; an empty lock that
    // stays empty belongs to a process killed in that instant.
    const empty = { host: hostname(), since: 'an unknown time', text };
    return ageMs(lockPath) < EMPTY_LOCK_GRACE_MS ? { ...empty, pid: process.pid } : { ...empty, pid: Number.NaN };
  }
  return { pid: Number.parseInt(pid, 10), host, since, text };
}

/**
 * Removes a dead process's lock, unless it changed since we read it (another process broke it and
 * took the lock meanwhile: that one must not be removed).
 */
function breakStaleLock(lockPath: string, staleText: string): void {
  try {
    if (readFileSync(lockPath, 'utf8') === staleText) rmSync(lockPath, { force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

const EMPTY_LOCK_GRACE_MS = 2_000;

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
