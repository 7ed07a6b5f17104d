import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** Where a save of `file` writes before the rename: beside it, so the rename stays on one file system. */
export function temporaryPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Replaces `file` with `text` so that a reader (or a crash at any instant) sees either the old
 * content or the new one, never a mix: write a temporary file beside it, fsync it, rename it over
 * the file, then fsync the folder so the rename itself survives a power loss.
 */
export function writeFileAtomically(file: string, text: string): void {
  const temporary = temporaryPathFor(file);
  const descriptor = openSync(temporary, 'wx');
  try {
    writeSync(descriptor, text);
    fsyncSync(descriptor);
  } catch (error) {
    closeSync(descriptor);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(descriptor);
  try {
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(dirname(file));
}

/** Some platforms (Windows) cannot open a folder for fsync; the rename is still atomic there. */
function syncFolder(folder: string): void {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(folder, 'r');
    fsyncSync(descriptor);
  } catch {
    // Best effort: see above.
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
