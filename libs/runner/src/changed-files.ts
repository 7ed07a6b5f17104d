import { execFile } from 'node:child_process';
import { join, relative, sep } from 'node:path';
import { ConfigError } from '@parley/core';

/** What changed in a git checkout since a ref (`--changed-since REF`). */
export interface ChangeSet {
  ref: string;
  /** Absolute path of the repository's top folder. */
  root: string;
  /** Absolute paths of every changed file: committed since the merge base, staged, unstaged, untracked. */
  files: string[];
  /** A file's text at the merge base (what the branch started from), or null when it did not exist there. */
  textAtBase(absolutePath: string): Promise<string | null>;
}

/**
 * The files changed since `ref` in the repository holding `directory`: `git diff --name-only
 * REF...HEAD` (what this branch committed since it left REF, not what REF gained since), plus what
 * is not committed yet (`git diff --name-only HEAD` and untracked files that are not ignored), so
 * a developer gets the same selection before committing as CI gets after.
 *
 * Not a git checkout, or an unknown ref, is a ConfigError (exit 2) saying so.
 */
export async function changedSince(directory: string, ref: string): Promise<ChangeSet> {
  const root = (await git(directory, ['rev-parse', '--show-toplevel'], () => `--changed-since needs a git checkout, and ${directory} is not inside one`)).trim();
  await git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], () => `--changed-since: "${ref}" is not a commit, branch or tag of this repository (fetch it first in CI: git fetch origin <branch>)`);
  const base = (await git(root, ['merge-base', ref, 'HEAD'], () => `--changed-since: "${ref}" and HEAD have no common history`)).trim();
  const lists = await Promise.all([
    git(root, ['diff', '--name-only', '-z', `${ref}...HEAD`], failure),
    git(root, ['diff', '--name-only', '-z', 'HEAD'], failure),
    git(root, ['ls-files', '--others', '--exclude-standard', '-z'], failure),
  ]);
  const files = [...new Set(lists.flatMap((list) => list.split('\0')).filter((path) => path !== ''))].sort().map((path) => join(root, path));
  return {
    ref,
    root,
    files,
    async textAtBase(absolutePath) {
      const path = relative(root, absolutePath).split(sep).join('/');
      try {
        return await git(root, ['show', `${base}:${path}`], failure);
      } catch {
        return null;
      }
    },
  };
}

const failure = (): string => '--changed-since: git failed';

function git(cwd: string, args: string[], describe: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new ConfigError(`${describe()}${stderr.trim() ? ` (git: ${stderr.trim().split('\n')[0]})` : ''}`));
      else resolve(stdout);
    });
  });
}
