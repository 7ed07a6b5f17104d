import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { DiskFullError, isDiskFull } from '@parley/core';

/** Below this much free space, an I/O error of SQLite is taken to be a full disk (its page writes and the WAL index need more). */
const NEARLY_FULL_BYTES = 256 * 1024;

/**
 * A failure of the database at `path` that is a full disk, as a {@link DiskFullError} ("disk full:
 * nothing was changed", exit 2), or undefined. SQLite says SQLITE_FULL when it knows; when the
 * write-ahead log or its index cannot grow it says only "disk I/O error" (SQLITE_IOERR_*), which
 * also means a damaged disk: that one counts as full only when the file system has (almost) no
 * space left, so corruption is never reported as a full disk.
 */
export function databaseDiskFull(error: unknown, path: string): DiskFullError | undefined {
  for (let cause: unknown = error, depth = 0; cause !== undefined && cause !== null && depth < 5; cause = (cause as { cause?: unknown }).cause, depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || isDiskFull(cause)) return new DiskFullError(path);
    if (typeof code === 'string' && code.startsWith('SQLITE_IOERR') && nearlyFull(path)) return new DiskFullError(path);
  }
  return undefined;
}

function nearlyFull(path: string): boolean {
  try {
    const { bavail, bsize } = statfsSync(dirname(path));
    return bavail * bsize < NEARLY_FULL_BYTES;
  } catch {
    return false;
  }
}
