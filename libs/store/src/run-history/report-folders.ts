import { lstatSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Why a pruned run's report folder was left where it is. */
export type FolderLeftReason = 'outside .parley' | 'symbolic link' | 'not a folder';

export type ReportFolderCheck =
  | { kind: 'removable'; path: string; bytes: number }
  | { kind: 'missing'; path: string }
  | { kind: 'left'; path: string; reason: FolderLeftReason };

/**
 * Whether a run's report folder may be deleted with the run: only a real folder (not a symbolic
 * link, not one reached through a link that leads elsewhere) inside the folder that holds the
 * database (`.parley/`), and never that folder itself. A folder the user chose with `--out`
 * elsewhere is theirs: the run's rows go, the folder stays.
 */
export function checkReportFolder(outDir: string, storePath: string): ReportFolderCheck {
  // Runs store their folder as an absolute path; a relative one is read from the project folder,
  // the one that holds `.parley/`.
  const path = resolve(dirname(dirname(resolve(storePath))), outDir);
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return { kind: 'missing', path };
  }
  if (stats.isSymbolicLink()) return { kind: 'left', path, reason: 'symbolic link' };
  if (!stats.isDirectory()) return { kind: 'left', path, reason: 'not a folder' };
  // Checked by name first: with a team store `.parley/` may not exist on this machine (every run
  // went to `--out`), and a folder outside it is left whether or not it does.
  if (!isStrictlyInside(path, resolve(dirname(storePath)))) return { kind: 'left', path, reason: 'outside .parley' };
  if (!isStrictlyInside(realpathSync(path), realpathSync(dirname(resolve(storePath))))) return { kind: 'left', path, reason: 'outside .parley' };
  return { kind: 'removable', path, bytes: folderBytes(path) };
}

/** Deletes a folder `checkReportFolder` found removable; links inside it are removed, not followed. */
export function removeReportFolder(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

function isStrictlyInside(path: string, root: string): boolean {
  const inside = relative(root, path);
  return inside !== '' && !inside.startsWith(`..${sep}`) && inside !== '..' && !inside.startsWith(sep) && !/^[A-Za-z]:/.test(inside);
}

/** Bytes of the files under a folder, links counted as themselves (never followed). */
function folderBytes(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) total += folderBytes(child);
    else total += lstatSync(child).size;
  }
  return total;
}
