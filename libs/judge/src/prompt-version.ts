import { execFile } from 'node:child_process';
import { basename, dirname, extname } from 'node:path';
import { sha256Hex } from '@parley/core';

/**
 * `prompt_version` of the judge cache key (docs/file-formats.md, "Judge metrics", cache): `<prompt
 * file stem>@<git short sha of the file's last commit>`, with `-dirty.<first 8 hex of the content's
 * sha256>` when the file has changes that are not committed (or was never committed:
 * `<stem>@none-dirty.<8 hex>`). An edited prompt can make the agent say something else, so verdicts
 * of the old prompt must not be reused for it; the content hash makes two different uncommitted
 * edits two versions.
 *
 * `file` undefined (an agent without a prompt file, e.g. an http service) gives `<name>@none`.
 */
export async function promptVersion(file: string | undefined, name: string): Promise<string> {
  if (file === undefined) return `${name}@none`;
  const stem = basename(file, extname(file));
  let content: Buffer;
  try {
    // node:fs/promises is taken here, not imported: every run loads this module, few ask for a prompt version.
    content = await process.getBuiltinModule('node:fs/promises').readFile(file);
  } catch {
    return `${stem}@missing`;
  }
  const directory = dirname(file);
  const [lastCommit, status] = await Promise.all([
    git(directory, ['log', '-1', '--format=%h', '--', basename(file)]),
    git(directory, ['status', '--porcelain', '--', basename(file)]),
  ]);
  const sha = lastCommit?.trim() || 'none';
  const committedAsIs = lastCommit !== null && sha !== 'none' && status !== null && status.trim() === '';
  return committedAsIs ? `${stem}@${sha}` : `${stem}@${sha}-dirty.${sha256Hex(content).slice(0, 8)}`;
}

/** stdout of a git command, or null outside a checkout or when git is missing. */
function git(cwd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, encoding: 'utf8' }, (error, stdout) => resolve(error ? null : stdout));
  });
}
