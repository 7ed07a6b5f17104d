import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitSha } from './git-sha.js';

/** The environment git runs with in these tests: no GIT_* variable of the test runner's own. */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_') && name !== 'SUDO_UID'));

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Parley Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: cleanEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** What `git rev-parse HEAD` says in the folder, null where it fails: the answer gitSha must give. */
function revParse(cwd: string): string | null {
  try {
    return git(cwd, 'rev-parse', 'HEAD') || null;
  } catch {
    return null;
  }
}

/** gitSha with a count of the times it asked git. */
async function shaAndAsks(directory: string, env: NodeJS.ProcessEnv = cleanEnv): Promise<{ sha: string | null; asks: number }> {
  let asks = 0;
  const sha = await gitSha(directory, env, (folder) => {
    asks += 1;
    return Promise.resolve(revParse(folder));
  });
  return { sha, asks };
}

describe('gitSha', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'parley-git-sha-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function repositoryWithCommits(count: number, name = 'repo'): string {
    const repo = join(root, name);
    mkdirSync(join(repo, 'suite', 'scenarios'), { recursive: true });
    git(repo, 'init', '-q');
    for (let index = 0; index < count; index += 1) {
      writeFileSync(join(repo, 'suite', 'parley.yaml'), `suite: s${index}\n`);
      git(repo, 'add', '.');
      git(repo, 'commit', '-q', '-m', `commit ${index}`);
    }
    return repo;
  }

  it('is null outside a checkout, without asking git', async () => {
    const folder = join(root, 'plain', 'suite');
    mkdirSync(folder, { recursive: true });
    expect(revParse(folder)).toBeNull();
    expect(await shaAndAsks(folder)).toEqual({ sha: null, asks: 0 });
  });

  it('reads a branch\'s commit from a loose ref and from packed-refs, and a detached HEAD, as git rev-parse HEAD says them, without asking git', async () => {
    const repo = repositoryWithCommits(2);
    const suite = join(repo, 'suite', 'scenarios');
    const head = revParse(suite);
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(await shaAndAsks(suite)).toEqual({ sha: head, asks: 0 });
    // A variable that does not move the repository (set on some CI images) changes nothing.
    expect(await shaAndAsks(suite, { ...cleanEnv, GIT_SSL_CAINFO: '/etc/ssl/certs/ca-certificates.crt' })).toEqual({ sha: head, asks: 0 });
    git(repo, 'pack-refs', '--all');
    expect(await shaAndAsks(suite)).toEqual({ sha: head, asks: 0 });
    git(repo, 'checkout', '-q', '--detach', 'HEAD~1');
    const detached = revParse(suite);
    expect(detached).not.toBe(head);
    expect(await shaAndAsks(suite)).toEqual({ sha: detached, asks: 0 });
  });

  it('reads a linked worktree\'s own HEAD through its .git file', async () => {
    const repo = repositoryWithCommits(2);
    const worktree = join(root, 'linked');
    git(repo, 'worktree', 'add', '-q', '-b', 'other', worktree, 'HEAD~1');
    const suite = join(worktree, 'suite');
    expect(revParse(suite)).not.toBe(revParse(repo));
    expect(await shaAndAsks(suite)).toEqual({ sha: revParse(suite), asks: 0 });
  });

  it('asks git where the files are not the plain kind: a branch without a commit, GIT_* variables', async () => {
    const repo = repositoryWithCommits(0);
    expect(await shaAndAsks(join(repo, 'suite'))).toEqual({ sha: null, asks: 1 });
    const committed = repositoryWithCommits(1, 'committed');
    expect(await shaAndAsks(join(committed, 'suite'), { ...cleanEnv, GIT_DIR: join(committed, '.git') })).toEqual({ sha: revParse(committed), asks: 1 });
  });

  it('asks git itself by default', async () => {
    const repo = repositoryWithCommits(0);
    await expect(gitSha(join(repo, 'suite'), cleanEnv)).resolves.toBeNull();
  });
});
