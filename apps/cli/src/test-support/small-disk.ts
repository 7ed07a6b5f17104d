import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/**
 * A real, small file system for disk-full tests: a tmpfs of `sizeKiB` mounted on a fresh folder
 * (`mount -t tmpfs`, which needs root, as CI and the development container run). There is no
 * fallback and no skip: a machine that cannot mount one fails these tests, saying why.
 */
export function mountSmallDisk(sizeKiB: number): { dir: string; unmount(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'parley-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `the disk-full tests need a real small file system: \`mount -t tmpfs\` failed (run them as root, as CI does): ${why}`,
    );
  }
  return {
    dir,
    unmount() {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Mounts a small disk (4 MiB) on `suite/.parley`, where the run history and the default report
 * folders live, and returns that folder; `unmount()` takes both mounts away again.
 */
export function historyOnSmallDisk(suite: string, sizeKiB = 4096): { dir: string; unmount(): void } {
  const disk = mountSmallDisk(sizeKiB);
  const parleyDir = join(suite, '.parley');
  try {
    mkdirSync(parleyDir);
    execFileSync('mount', ['--bind', disk.dir, parleyDir], { stdio: 'pipe' });
  } catch (error) {
    disk.unmount();
    throw error;
  }
  return {
    dir: parleyDir,
    unmount() {
      execFileSync('umount', [parleyDir], { stdio: 'pipe' });
      disk.unmount();
    },
  };
}

/** Fills the file system of `dir` until `freeBytes` (rounded down to whole blocks) are left. */
export function fillDisk(dir: string, freeBytes: number): void {
  rmSync(join(dir, '.filler'), { force: true });
  const { bavail, bsize } = statfsSync(dir);
  const fill = bavail * bsize - freeBytes;
  if (fill > 0) writeFileSync(join(dir, '.filler'), Buffer.alloc(fill));
}

/** Every regular file under `dir` (but the filler) with its bytes. */
export function snapshotFiles(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name !== '.filler') files.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return files;
}

/**
 * Files that held data before and are now damaged: gone, or changed into something `intact` does
 * not accept (by default: shorter than before). Must always be none.
 */
export function damagedFiles(before: Map<string, Buffer>, dir: string, intact: (path: string, old: Buffer, now: Buffer) => boolean = (_path, old, now) => now.length >= old.length): string[] {
  const damaged: string[] = [];
  for (const [path, old] of before) {
    let now: Buffer;
    try {
      if (!statSync(join(dir, path)).isFile()) throw new Error('not a file');
      now = readFileSync(join(dir, path));
    } catch {
      damaged.push(`${path}: gone`);
      continue;
    }
    if (!now.equals(old) && !intact(path, old, now)) damaged.push(`${path}: ${old.length} → ${now.length} bytes, damaged`);
  }
  return damaged;
}
