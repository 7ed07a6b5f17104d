import { execFileSync } from 'node:child_process';

/** The commit the suite is at, or null outside a git checkout (reports say which code ran). */
export function gitSha(directory: string): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: directory, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}
