import { dirname } from 'node:path';

/**
 * The nearest folder at or above `folder` for which `holds` is true (the suite's parley.yaml, the
 * repository's .git, the package.json a module belongs to), or undefined when none up to the root is.
 */
export function nearestFolder(folder: string, holds: (candidate: string) => boolean): string | undefined {
  for (let current = folder; ; current = dirname(current)) {
    if (holds(current)) return current;
    if (dirname(current) === current) return undefined;
  }
}
