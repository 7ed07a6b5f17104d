import { execFileSync } from 'node:child_process';
import { closeSync, fsyncSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendAllSync, DiskFullError, writeFileAtomically, writeFileAtomicallyAsync, type FileIo } from './atomic-file.js';
import { isConfigError } from './config-error.js';

function folderWith(name: string, content: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'parley-atomic-'));
  const file = join(dir, name);
  writeFileSync(file, content);
  return { dir, file };
}

/** A writeSync that writes at most `most` bytes per call, as the kernel may on a nearly full disk. */
function shortWrites(most: number): Pick<FileIo, 'writeSync'> {
  return { writeSync: (descriptor, buffer, offset, length) => writeSync(descriptor, buffer, offset, Math.min(length, most)) };
}

/** A writeSync that writes `budget` bytes in all and then fails as a full disk does. */
function diskFullAfter(budget: number): Pick<FileIo, 'writeSync'> {
  let left = budget;
  return {
    writeSync(descriptor, buffer, offset, length) {
      if (left <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      const written = writeSync(descriptor, buffer, offset, Math.min(length, left));
      left -= written;
      return written;
    },
  };
}

const OLD = 'schema_version: 1\nitems:\n  - id: kept\n';
const NEW = `schema_version: 1\nitems:\n${Array.from({ length: 200 }, (_, index) => `  - id: item-${index} # Habari, ñ, 🌍\n`).join('')}`;

describe('writeFileAtomically', () => {
  it('writes every byte when writeSync writes only part of what it is given (a short write)', () => {
    const { file } = folderWith('set.yaml', OLD);
    writeFileAtomically(file, NEW, { io: shortWrites(7) });
    expect(readFileSync(file, 'utf8')).toBe(NEW);
  });

  it('writes pieces in order, each in full', () => {
    const { file } = folderWith('report.json', '{}\n');
    writeFileAtomically(file, ['{\n', '  "a": "Karibu 🌍"', '\n}\n'], { io: shortWrites(3) });
    expect(readFileSync(file, 'utf8')).toBe('{\n  "a": "Karibu 🌍"\n}\n');
  });

  it('writes many pieces of every size in order, small ones through one reused buffer and ones over a MiB on their own', () => {
    const { file } = folderWith('report.json', '{}\n');
    const pieces = ['a', 'Karibu 🌍 '.repeat(7000), 'ß'.repeat(30), 'x'.repeat(1024 * 1024 + 5), '€'.repeat(400_000), 'end\n', ''];
    writeFileAtomically(file, [...pieces, ...pieces.slice(0, 3).reverse()], { io: shortWrites(40_000) });
    expect(readFileSync(file, 'utf8')).toBe([...pieces, ...pieces.slice(0, 3).reverse()].join(''));
  });

  it('on a full disk half-way leaves the old file exactly as it was, no temporary file, and says "disk full: nothing was changed"', () => {
    const { dir, file } = folderWith('set.yaml', OLD);
    let thrown: unknown;
    try {
      writeFileAtomically(file, NEW, { io: diskFullAfter(100) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DiskFullError);
    expect(isConfigError(thrown)).toBe(true); // exit 2
    expect((thrown as DiskFullError).message).toBe(`${file}: disk full: nothing was changed`);
    expect(readFileSync(file, 'utf8')).toBe(OLD);
    expect(readdirSync(dir)).toEqual(['set.yaml']);
  });

  it('never renames a file whose size is not what was written (a write that silently lost bytes)', () => {
    const { file } = folderWith('set.yaml', OLD);
    // writeSync claims the whole length but writes only the first half of it.
    const liar: Pick<FileIo, 'writeSync'> = { writeSync: (descriptor, buffer, offset, length) => (writeSync(descriptor, buffer, offset, Math.ceil(length / 2)), length) };
    expect(() => writeFileAtomically(file, NEW, { io: liar })).toThrow(/holds \d+ bytes after writing \d+/);
    expect(readFileSync(file, 'utf8')).toBe(OLD);
  });

  it('treats a write that takes nothing as a full disk instead of looping', () => {
    const { file } = folderWith('set.yaml', OLD);
    expect(() => writeFileAtomically(file, NEW, { io: { writeSync: () => 0 } })).toThrow(DiskFullError);
    expect(readFileSync(file, 'utf8')).toBe(OLD);
  });

  it('fsyncs before it renames', () => {
    const { file } = folderWith('set.yaml', OLD);
    const calls: string[] = [];
    writeFileAtomically(file, NEW, {
      io: {
        fsyncSync: (descriptor) => {
          calls.push('fsync');
          fsyncSync(descriptor);
        },
        renameSync: (from, to) => {
          calls.push('rename');
          renameSync(from, to);
        },
      },
    });
    expect(calls.slice(0, 2)).toEqual(['fsync', 'rename']);
    expect(readFileSync(file, 'utf8')).toBe(NEW);
  });
});

describe('writeFileAtomicallyAsync', () => {
  it('replaces the file with every piece, in order, and leaves no temporary file', async () => {
    const { dir, file } = folderWith('s.jsonl', OLD);
    await writeFileAtomicallyAsync(file, ['{"a":1}\n', NEW, '{"ñ":"🌍"}\n']);
    expect(readFileSync(file, 'utf8')).toBe(`{"a":1}\n${NEW}{"ñ":"🌍"}\n`);
    expect(readdirSync(dir)).toEqual(['s.jsonl']);
  });

  it('writes through a symbolic link to the file it leads to, as writeFileAtomically does', async () => {
    const { dir, file } = folderWith('target.jsonl', OLD);
    symlinkSync(file, join(dir, 'link.jsonl'));
    await writeFileAtomicallyAsync(join(dir, 'link.jsonl'), NEW);
    expect(readFileSync(file, 'utf8')).toBe(NEW);
  });

  it('when the rename fails leaves what was there untouched, removes its temporary file and rethrows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-atomic-'));
    mkdirSync(join(dir, 'taken.jsonl')); // a folder where the file would go
    writeFileSync(join(dir, 'taken.jsonl', 'inside'), OLD);
    await expect(writeFileAtomicallyAsync(join(dir, 'taken.jsonl'), NEW)).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/) });
    expect(readdirSync(dir)).toEqual(['taken.jsonl']);
    expect(readFileSync(join(dir, 'taken.jsonl', 'inside'), 'utf8')).toBe(OLD);
  });
});

describe('a path that names no regular file', () => {
  it('a FIFO (as a device such as /dev/null) is refused, never replaced by a rename: it stays a FIFO and no temporary file is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-atomic-'));
    const fifo = join(dir, 'baseline.json');
    execFileSync('mkfifo', [fifo]);
    for (const write of [() => writeFileAtomically(fifo, NEW), () => writeFileAtomicallyAsync(fifo, NEW)]) {
      const error = await Promise.resolve().then(write).catch((caught: unknown) => caught);
      expect(isConfigError(error), String(error)).toBe(true);
      expect(String((error as Error).message)).toContain('is not a regular file (a FIFO, socket or device): nothing was written');
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      expect(readdirSync(dir)).toEqual(['baseline.json']);
    }
  });
});

describe('appendAllSync', () => {
  it('appends in full through short writes, and cuts a failed append back so the log ends on a whole line', () => {
    const { file } = folderWith('events.jsonl', '{"type":"run_started"}\n');
    const descriptor = openSync(file, 'a');
    try {
      appendAllSync(descriptor, file, '{"type":"scenario_started"}\n', { io: shortWrites(5) });
      expect(() => appendAllSync(descriptor, file, `${JSON.stringify({ type: 'turn', text: 'x'.repeat(500) })}\n`, { io: diskFullAfter(40) })).toThrow(DiskFullError);
    } finally {
      closeSync(descriptor);
    }
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toEqual(['{"type":"run_started"}', '{"type":"scenario_started"}', '']);
  });
});
