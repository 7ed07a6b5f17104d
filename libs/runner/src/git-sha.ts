import { execFile } from 'node:child_process';
import { lstatSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Asks git itself: `git rev-parse HEAD` in the folder, null when it fails (not a checkout, no commit, no git). */
function gitRevParse(directory: string): Promise<string | null> {
  return new Promise((done) => {
    execFile('git', ['rev-parse', 'HEAD'], { cwd: directory, encoding: 'utf8' }, (error, stdout) => {
      done(error ? null : stdout.trim() || null);
    });
  });
}

/**
 * The commit the suite is at, or null outside a git checkout (reports say which code ran).
 * Read from the repository's own files when they are the plain kind (the checkout's `.git`
 * folder or a worktree's `.git` file; HEAD on a branch, loose or packed, or detached), so a run
 * does not start a process for it: starting one holds the main thread until the child has
 * started (a fork of the whole process), 4-35 ms on a loaded machine. Anything else (GIT_DIR and
 * the other variables that move the repository, another owner, a symbolic link, repository
 * extensions, a branch without a commit) asks git, which is asynchronous: it starts first and is
 * awaited at the end.
 */
export function gitSha(directory: string, env: NodeJS.ProcessEnv = process.env, askGit: (directory: string) => Promise<string | null> = gitRevParse): Promise<string | null> {
  const read = shaFromFiles(directory, env);
  return read === undefined ? askGit(directory) : Promise.resolve(read);
}

const COMMIT = /^[0-9a-f]{40}$/;

const GIT_LOOKUP = new Set(['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_NAMESPACE']);

/** The commit from the files; null when no folder up the tree has a `.git`; undefined to ask git. */
function shaFromFiles(directory: string, env: NodeJS.ProcessEnv): string | null | undefined {
  // These change where git looks or how it reads the repository; git refuses a repository of
  // another user (safe.directory), and under sudo compares with SUDO_UID.
  if (Object.keys(env).some((name) => GIT_LOOKUP.has(name) || name.startsWith('GIT_CONFIG')) || env.SUDO_UID !== undefined || typeof process.getuid !== 'function') return undefined;
  const uid = process.getuid();
  try {
    let folder = realpathSync(directory);
    const device = statSync(folder).dev;
    for (;;) {
      const dotGit = lstatOrUndefined(join(folder, '.git'));
      if (dotGit !== undefined) return dotGit.uid === uid && statSync(folder).uid === uid ? shaInRepository(folder, dotGit, uid) : undefined;
      // A folder that is itself a repository (a bare one, or inside .git): git's to say.
      if (lstatOrUndefined(join(folder, 'HEAD')) !== undefined && lstatOrUndefined(join(folder, 'objects')) !== undefined) return undefined;
      const parent = dirname(folder);
      if (parent === folder) return null;
      // git stops looking at another file system's boundary: not a repository.
      if (statSync(parent).dev !== device) return null;
      folder = parent;
    }
  } catch {
    return undefined;
  }
}

function shaInRepository(folder: string, dotGit: Stats, uid: number): string | undefined {
  let gitDir: string;
  if (dotGit.isDirectory()) gitDir = join(folder, '.git');
  else if (dotGit.isFile()) {
    // A worktree's or submodule's `.git` file: `gitdir: <path>`.
    const pointer = /^gitdir: (.+)$/.exec(readFileSync(join(folder, '.git'), 'utf8').trim());
    if (pointer === null) return undefined;
    gitDir = resolve(folder, pointer[1]!);
  } else return undefined;
  if (statSync(gitDir).uid !== uid) return undefined;
  const commonFile = textOrUndefined(join(gitDir, 'commondir'));
  const commonDir = commonFile === undefined ? gitDir : resolve(gitDir, commonFile.trim());
  // Extensions (reftable, sha256 objects, …) change how refs are kept.
  if (/\[extensions\]/i.test(textOrUndefined(join(commonDir, 'config')) ?? '')) return undefined;
  const head = textOrUndefined(join(gitDir, 'HEAD'))?.trim();
  if (head === undefined) return undefined;
  if (COMMIT.test(head)) return head;
  const ref = /^ref: (refs\/heads\/[^\s]+)$/.exec(head)?.[1];
  if (ref === undefined) return undefined;
  const loose = textOrUndefined(join(commonDir, ref));
  if (loose !== undefined) return COMMIT.test(loose.trim()) ? loose.trim() : undefined;
  for (const line of (textOrUndefined(join(commonDir, 'packed-refs')) ?? '').split('\n')) {
    const [sha, name] = line.trim().split(' ');
    if (name === ref && sha !== undefined && COMMIT.test(sha)) return sha;
  }
  return undefined;
}

function lstatOrUndefined(path: string): Stats | undefined {
  return lstatSync(path, { throwIfNoEntry: false });
}

function textOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
