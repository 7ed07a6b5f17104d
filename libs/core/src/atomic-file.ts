import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { ConfigError } from './config-error.js';
import { reusedUtf8 } from './reused-utf8.js';

/**
 * The file-system calls an atomic write makes. Tests replace some of them (a `writeSync` that
 * writes only part of what it is given, one that fails with ENOSPC half-way) to prove that a
 * short or failed write never reaches the file.
 */
export interface FileIo {
  openSync(path: string, flags: string): number;
  writeSync(descriptor: number, buffer: Uint8Array, offset: number, length: number): number;
  fsyncSync(descriptor: number): void;
  fstatSync(descriptor: number): { size: number };
  ftruncateSync(descriptor: number, length: number): void;
  closeSync(descriptor: number): void;
  renameSync(from: string, to: string): void;
  linkSync(existing: string, link: string): void;
  rmSync(path: string, options: { force: true }): void;
}

/** The real calls. */
const nodeFileIo: FileIo = {
  openSync: (path, flags) => fs.openSync(path, flags),
  writeSync: (descriptor, buffer, offset, length) => fs.writeSync(descriptor, buffer, offset, length),
  fsyncSync: (descriptor) => fs.fsyncSync(descriptor),
  fstatSync: (descriptor) => fs.fstatSync(descriptor),
  ftruncateSync: (descriptor, length) => fs.ftruncateSync(descriptor, length),
  closeSync: (descriptor) => fs.closeSync(descriptor),
  renameSync: (from, to) => fs.renameSync(from, to),
  linkSync: (existing, link) => fs.linkSync(existing, link),
  rmSync: (path, options) => fs.rmSync(path, options),
};

/** The one message a full disk gets, whatever was being written. */
const DISK_FULL_MESSAGE = 'disk full: nothing was changed';

/**
 * A write that found the disk (or the quota) full. The file it was to replace is exactly as it
 * was; the CLI prints `error: <file>: disk full: nothing was changed` and exits 2.
 */
export class DiskFullError extends ConfigError {
  readonly file: string;

  constructor(file: string, message: string = DISK_FULL_MESSAGE) {
    super({ file, message });
    this.name = 'DiskFullError';
    this.file = file;
  }
}

/** ENOSPC (no space left) or EDQUOT (quota exceeded): the disk is full as far as this write can tell. */
export function isDiskFull(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** Where an atomic write of `file` writes before the rename: beside it, so the rename stays on one file system. */
export function temporaryPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export interface AtomicWriteOptions {
  /** Replaces file-system calls (tests). */
  io?: Partial<FileIo>;
  /**
   * The folder (a suite) that `file` belongs to. When `file` is a symbolic link, it is written
   * through only if it leads to a regular file inside this folder; any other link (dangling, to a
   * folder, or leading outside) is refused with a ConfigError rather than followed or replaced.
   */
  inside?: string;
}

/**
 * Where writing `file` must land. A plain path is itself. A symbolic link is resolved, so that a
 * rename replaces the file the link leads to and not the link (a `human_labelled.yaml` linked from
 * elsewhere in the suite stays linked and gets the change). Without `inside`, a link that leads to a
 * regular file is followed and any other link is refused; with it, the target must also lie in it.
 */
export function writeTargetOf(file: string, inside?: string): string {
  let link: fs.Stats;
  try {
    link = fs.lstatSync(file);
  } catch {
    return file; // absent: created where it is named
  }
  if (!link.isSymbolicLink()) {
    // A rename would replace a FIFO, socket or device node (`--export-baseline /dev/null` run as root replaced /dev/null).
    if (!link.isFile() && !link.isDirectory()) throw new ConfigError({ file, message: 'is not a regular file (a FIFO, socket or device): nothing was written; give the path of a file' });
    return file;
  }
  let target: string;
  try {
    target = fs.realpathSync(file);
  } catch {
    throw new ConfigError({ file, message: 'is a symbolic link to nothing (dangling): remove the link or make it lead to a file in the suite' });
  }
  if (!fs.statSync(target).isFile()) throw new ConfigError({ file, message: `is a symbolic link to ${target}, which is not a regular file: nothing was written` });
  if (inside !== undefined) {
    const root = fs.realpathSync(inside);
    const within = relative(root, target);
    if (within === '' || within.startsWith('..') || isAbsolute(within)) {
      throw new ConfigError({ file, message: `is a symbolic link to ${target}, outside ${inside}: nothing was written through it; replace the link with a file` });
    }
  }
  return target;
}

/**
 * Replaces `file` with `content` so that a reader, a crash at any instant or a full disk sees the
 * old content or the whole new one, never a mix and never a cut-short file:
 *
 * 1. write a temporary file beside it, every byte (a short write is continued until all is written);
 * 2. fsync it, and check that its size is the number of bytes meant;
 * 3. only then rename it over the file, and fsync the folder so the rename survives a power loss.
 *
 * Any failure removes the temporary file and leaves `file` untouched. A full disk (ENOSPC, EDQUOT)
 * is a {@link DiskFullError} ("disk full: nothing was changed", exit 2); anything else is rethrown.
 * `content` may be a string or pieces of one (a large report is written piece by piece).
 *
 * @example writeFileAtomically('calibration/human_labelled.yaml', text);
 */
export function writeFileAtomically(file: string, content: string | Iterable<string>, options: AtomicWriteOptions = {}): void {
  writeAtomically(file, content, options, false);
}

/**
 * {@link writeFileAtomically}'s steps (a whole temporary file beside `file`, fsynced and its size
 * checked, renamed over it, the folder fsynced) through `fs.promises`: the writes and both fsyncs
 * run on libuv's thread pool, so the event loop goes on serving other work meanwhile. A live run
 * writes each scenario's recording this way: a synchronous fsync (several milliseconds on a busy
 * disk) would hold up every conversation in flight, not only the one whose recording it is.
 * Failures are as in `writeFileAtomically`: nothing changes, a full disk is a {@link DiskFullError}.
 */
export async function writeFileAtomicallyAsync(file: string, content: string | Iterable<string>): Promise<void> {
  const target = writeTargetOf(file);
  const temporary = temporaryPathFor(target);
  const bytes = Buffer.from(typeof content === 'string' ? content : [...content].join(''), 'utf8');
  try {
    const handle = await fs.promises.open(temporary, 'wx');
    try {
      await handle.writeFile(bytes); // writes every byte (it continues after a short write)
      await handle.sync();
      const { size } = await handle.stat();
      if (size !== bytes.length) throw Object.assign(new Error(`${temporary} holds ${size} bytes after writing ${bytes.length}`), { code: 'EIO' });
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temporary, target);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    if (isDiskFull(error)) throw new DiskFullError(file);
    throw error;
  }
  try {
    const folder = await fs.promises.open(dirname(target), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  } catch {
    // Best effort, as in syncFolder.
  }
}

/**
 * Creates `file`, which must not exist yet (EEXIST otherwise, as `writeFileSync(file, text, { flag:
 * 'wx' })` would throw), so that a full disk or a crash leaves no file at all rather than an empty
 * or cut one: the whole content is written and fsynced beside it first (as in
 * {@link writeFileAtomically}), then hard-linked to its name (a link, unlike a rename, refuses to
 * replace a file that appeared meanwhile), then the temporary name is removed.
 *
 * @example writeNewFileAtomically('scenarios/spa_happy.yaml', yaml);
 */
export function writeNewFileAtomically(file: string, content: string | Iterable<string>, options: AtomicWriteOptions = {}): void {
  writeAtomically(file, content, options, true);
}

function writeAtomically(named: string, content: string | Iterable<string>, options: AtomicWriteOptions, onlyNew: boolean): void {
  const io: FileIo = { ...nodeFileIo, ...options.io };
  // A new file never goes through a link: linkSync fails with EEXIST on any link, dangling or not.
  const file = onlyNew ? named : writeTargetOf(named, options.inside);
  const temporary = temporaryPathFor(file);
  try {
    const descriptor = io.openSync(temporary, 'wx');
    try {
      let expected = 0;
      for (const piece of typeof content === 'string' ? [content] : content) expected += writeAllSync(descriptor, piece, io);
      io.fsyncSync(descriptor);
      const { size } = io.fstatSync(descriptor);
      if (size !== expected) throw Object.assign(new Error(`${temporary} holds ${size} bytes after writing ${expected}`), { code: 'EIO' });
    } finally {
      io.closeSync(descriptor);
    }
    if (onlyNew) {
      io.linkSync(temporary, file);
      io.rmSync(temporary, { force: true });
    } else io.renameSync(temporary, file);
  } catch (error) {
    io.rmSync(temporary, { force: true });
    if (isDiskFull(error)) throw new DiskFullError(named);
    throw error;
  }
  syncFolder(dirname(file), io);
}

/**
 * Appends `text` to an open file (an append-only log) in full, or not at all: a short write is
 * continued, and a failed one is cut back to where the file ended, so the log never ends in half a
 * line. A full disk is a {@link DiskFullError} naming `file`.
 */
export function appendAllSync(descriptor: number, file: string, text: string, options: AtomicWriteOptions = {}): void {
  const io: FileIo = { ...nodeFileIo, ...options.io };
  const before = io.fstatSync(descriptor).size;
  try {
    writeAllSync(descriptor, text, io);
  } catch (error) {
    try {
      io.ftruncateSync(descriptor, before);
    } catch {
      // The append failed and so did the repair; the error that matters is the first.
    }
    if (isDiskFull(error)) throw new DiskFullError(file, `${DISK_FULL_MESSAGE} (the log ends at its last complete line)`);
    throw error;
  }
}

/**
 * Writes every byte of `text` at the descriptor's position: `writeSync` may write fewer bytes than
 * asked (a nearly full disk, a signal), so it is called until all are written. A call that writes
 * nothing at all means the disk took no more. Returns the number of bytes written.
 */
export function writeAllSync(descriptor: number, text: string, io: Pick<FileIo, 'writeSync'> = nodeFileIo): number {
  const bytes = reusedUtf8([text]);
  let offset = 0;
  while (offset < bytes.length) {
    const written = io.writeSync(descriptor, bytes, offset, bytes.length - offset);
    if (written <= 0) throw Object.assign(new Error(`no space left: write took 0 of ${bytes.length - offset} bytes`), { code: 'ENOSPC' });
    offset += written;
  }
  return bytes.length;
}

/** Some platforms (Windows) cannot open a folder for fsync; the rename is still atomic there. */
function syncFolder(folder: string, io: FileIo): void {
  let descriptor: number | undefined;
  try {
    descriptor = io.openSync(folder, 'r');
    io.fsyncSync(descriptor);
  } catch {
    // Best effort: see above.
  } finally {
    if (descriptor !== undefined) io.closeSync(descriptor);
  }
}
