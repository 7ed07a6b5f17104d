import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { ConfigError } from '@parley/core';

/**
 * An error a command did not turn into a message of its own, but which is the user's to fix, not a
 * bug: a path that cannot be used (a file where a folder must be, a name too long, a read-only
 * file system, no permission, a full disk) or a lock another machine holds. It becomes a
 * ConfigError: one line saying what is wrong and what to do, exit 2, no stack and no "internal
 * error". Anything else is left for the internal-error message.
 */
export function userErrorOf(error: unknown, cwd: string): ConfigError | undefined {
  if (error instanceof Error && error.name === 'FileLockTimeout') return new ConfigError(error.message);
  const failure = error as NodeJS.ErrnoException;
  if (failure === null || typeof failure !== 'object' || typeof failure.code !== 'string' || typeof failure.path !== 'string') return undefined;
  const what = pathProblem(failure.code, failure.syscall, failure.path);
  return what === undefined ? undefined : new ConfigError(`${shown(failure.path, cwd)}: ${what}`);
}

function pathProblem(code: string, syscall: string | undefined, path: string): string | undefined {
  switch (code) {
    case 'EEXIST':
      return syscall === 'mkdir'
        ? 'a file is in the way where Parley needs a folder: give another path, or move the file aside'
        : 'already exists and Parley does not overwrite it: give another path, or move it aside';
    case 'ENOTDIR':
      return 'a part of this path is a file, not a folder: give a path whose folders are folders';
    case 'EISDIR':
      return 'is a folder where Parley needs a file: give the path of a file';
    case 'ENAMETOOLONG':
      return 'a name in this path is too long for the file system (most allow 255 bytes): choose a shorter name';
    case 'EROFS':
      return readOnly;
    case 'EACCES':
    case 'EPERM':
      return 'permission denied: check the permissions of the folder, or choose another one';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'disk full: free some space and run again';
    case 'ELOOP':
      return 'too many symbolic links (a loop?): fix the link';
    case 'ENOENT':
      // On a read-only file system a recursive mkdir says ENOENT: ask the folder that exists.
      if (syscall === 'mkdir' && onReadOnlyFileSystem(path)) return readOnly;
      return syscall === 'mkdir' || syscall === 'open' ? 'no such file or folder: check the path' : undefined;
    default:
      return undefined;
  }
}

const readOnly = 'read-only file system: run where Parley may write, or choose a folder on a writable disk';

function onReadOnlyFileSystem(path: string): boolean {
  let existing = resolve(path);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    accessSync(existing, constants.W_OK);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EROFS';
  }
}

/** The path as the user would write it (relative to the working folder when inside it), a very long one shortened. */
function shown(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  const text = isAbsolute(path) && inside !== '' && !inside.startsWith('..') ? inside : path;
  return text.length > 120 ? `${text.slice(0, 58)}…${text.slice(-58)}` : text;
}
