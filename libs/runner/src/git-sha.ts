import { execFile } from 'node:child_process';

/**
 * The commit the suite is at, or null outside a git checkout (reports say which code ran).
 * Asynchronous so the run does not wait for git: it starts first and is awaited at the end.
 */
export function gitSha(directory: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['rev-parse', 'HEAD'], { cwd: directory, encoding: 'utf8' }, (error, stdout) => {
      resolve(error ? null : stdout.trim() || null);
    });
  });
}
