import { globSync as globSyncNode, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Matches of globs (the scenarios glob, the metric files) that are neither regular files nor
 * folders: a FIFO, socket or device, a symbolic link to nothing or a loop of links. tinyglobby
 * leaves them out silently; Node's own glob lists them, so the caller reads them, and they are
 * refused with their path like any other unreadable file, instead of being skipped without a word.
 * Absolute paths; `ignore` are globs of paths to leave out.
 */
export function unusualMatches(dir: string, patterns: string | readonly string[], ignore: readonly string[] = []): string[] {
  const globs = typeof patterns === 'string' ? [patterns] : [...patterns];
  // Node's glob loads its own matcher on first use (~7 ms of a one-scenario replay): not asked
  // where no entry can be such a match.
  if (!globs.some((pattern) => mayHoldUnusualEntries(dir, pattern))) return [];
  const ignored = new Set(ignore.length > 0 ? globSyncNode([...ignore], { cwd: dir }) : []);
  return globSyncNode(globs, { cwd: dir })
    .filter((path) => !ignored.has(path))
    .map((path) => join(dir, path))
    .filter((file) => {
      try {
        const stats = statSync(file);
        return !stats.isFile() && !stats.isDirectory();
      } catch {
        // A link to nothing, or a loop of links: read, and refused with its path, rather than skipped without a word.
        return true;
      }
    });
}

/**
 * Whether the folder the glob starts from (its leading segments without glob characters) holds,
 * as deep as the glob reaches, an entry that is neither a regular file nor a folder: a FIFO,
 * socket or device, or a symbolic link, which may point at one. Without one, every match of the
 * glob is a file or a folder. Anything it cannot tell (an unreadable folder, a `..` after a glob
 * character, a backslash) counts as yes.
 */
function mayHoldUnusualEntries(dir: string, pattern: string): boolean {
  // A backslash escapes, or separates folders on Windows: not worth telling apart here.
  if (pattern.includes('\\')) return true;
  const parts = pattern.split('/');
  const first = parts.findIndex((part) => /[*?[\]{}()!+@]/.test(part));
  try {
    if (first === -1) {
      const entry = statSync(resolve(dir, pattern), { throwIfNoEntry: false });
      return entry !== undefined && !entry.isFile() && !entry.isDirectory();
    }
    if (parts.slice(first).includes('..')) return true;
    const base = resolve(dir, parts.slice(0, first).join('/') || '.');
    const recursive = first < parts.length - 1 || parts[first]!.includes('**');
    return readdirSync(base, { withFileTypes: true, recursive }).some((entry) => !entry.isFile() && !entry.isDirectory());
  } catch (error) {
    // A folder that is not there holds no match at all.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
