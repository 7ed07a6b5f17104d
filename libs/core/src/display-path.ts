import { isAbsolute, relative } from 'node:path';

/**
 * A path as a person at `cwd` reads it: relative when it is inside `cwd` (`.` for `cwd` itself),
 * else whole, so a message never sends anyone up with `../..`. A relative path is shown as given.
 */
export function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const inside = relative(cwd, path);
  if (inside === '') return '.';
  return inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}
