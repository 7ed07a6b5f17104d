import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { isConfigError, type ConfigError } from '@parley/core';
import { afterAll, describe, expect, it } from 'vitest';
import { readProductionLog } from './conversation-log.js';
import { logFileLines, LogIssues, logStreamLines, MAX_LOG_LINE_BYTES, SHOWN_LOG_ISSUES } from './log-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-log-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function caught(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (isConfigError(error)) return error;
    throw error;
  }
  throw new Error('no ConfigError');
}

const conversation = (id: string) => JSON.stringify({ conversation_id: id, turns: [{ role: 'user', content: 'Habari', timestamp: '2026-11-27T10:00:00Z' }] });

describe('logFileLines: bounded lines of a regular file', () => {
  it('splits lines, dropping a carriage return and the byte-order mark', () => {
    const file = join(dir, 'crlf.jsonl');
    writeFileSync(file, '\uFEFFone\r\ntwo\n\nthree');
    const issues = new LogIssues(file);
    expect([...logFileLines(file, 'log', issues)]).toEqual([
      { line: 1, text: 'one' },
      { line: 2, text: 'two' },
      { line: 3, text: '' },
      { line: 4, text: 'three' },
    ]);
    expect(issues.count).toBe(0);
  });

  it('refuses a folder, a FIFO with no writer (without hanging) and a device before reading', () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    for (const [path, kind] of [
      [dir, 'a folder'],
      [fifo, 'a FIFO (named pipe)'],
      ['/dev/zero', 'a device'],
      ['/dev/urandom', 'a device'],
    ] as const) {
      const error = caught(() => [...logFileLines(path, 'conversation log', new LogIssues(path))]);
      expect(error.issues[0]).toMatchObject({ file: path, message: `cannot read the conversation log: it is ${kind}, not a regular file; give the conversation log as a file` });
    }
  });

  it('names a line over the limit and goes on with the next (memory bounded by the limit)', () => {
    const file = join(dir, 'long.jsonl');
    writeFileSync(file, `short\n${'x'.repeat(5000)}\nafter\n`);
    const issues = new LogIssues(file);
    expect([...logFileLines(file, 'log', issues, 1024)]).toEqual([
      { line: 1, text: 'short' },
      { line: 3, text: 'after' },
    ]);
    const error = caught(() => issues.throwIfAny());
    expect(error.issues).toEqual([{ file, line: 2, column: 1, message: 'the line is longer than 1 KiB: a conversation log has one conversation a line' }]);
  });

  it('refuses bytes that are not UTF-8 with file:line and column, instead of turning them into U+FFFD', () => {
    const file = join(dir, 'latin1.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from(`${conversation('fine')}\n{"conversation_id": "caf`), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    const error = caught(() => readProductionLog(file));
    expect(error.issues).toEqual([{ file, line: 2, column: 25, message: 'the file is not UTF-8 text (byte 0xE9); save it as UTF-8' }]);
  });

  it(`shows the first ${SHOWN_LOG_ISSUES} bad lines of a million-line mess and counts the rest`, () => {
    const file = join(dir, 'mess.jsonl');
    writeFileSync(file, 'nope\n'.repeat(100_000));
    const error = caught(() => readProductionLog(file));
    expect(error.issues).toHaveLength(SHOWN_LOG_ISSUES + 1);
    expect(error.issues[0]).toMatchObject({ line: 1, message: expect.stringMatching(/^not valid JSON/) });
    expect(error.issues.at(-1)).toEqual({ file, line: SHOWN_LOG_ISSUES + 1, column: 1, message: `… and ${100_000 - SHOWN_LOG_ISSUES} more bad lines from here on (the first ${SHOWN_LOG_ISSUES} are shown)` });
  });
});

describe('logStreamLines: the same over a stream (stdin)', () => {
  it('splits chunks across line breaks and refuses invalid UTF-8', async () => {
    const issues = new LogIssues('<stdin>');
    const stream = Readable.from([Buffer.from('ab'), Buffer.from('c\nd'), Buffer.from([0xff, 0x0a]), Buffer.from('e')]);
    const lines = [];
    for await (const line of logStreamLines(stream, '<stdin>', issues)) lines.push(line);
    expect(lines).toEqual([
      { line: 1, text: 'abc' },
      { line: 3, text: 'e' },
    ]);
    expect(caught(() => issues.throwIfAny()).issues).toEqual([{ file: '<stdin>', line: 2, column: 2, message: 'the file is not UTF-8 text (byte 0xFF); save it as UTF-8' }]);
  });
});

describe('readProductionLog: one reader for every command', () => {
  it('--since leaves out what ended before and what has no turn timestamp; a conversation logged twice counts once', () => {
    const file = join(dir, 'window.jsonl');
    const undated = JSON.stringify({ conversation_id: 'undated', turns: [{ role: 'user', content: 'Habari', ts: '2026-11-27T10:00:00Z' }] });
    const old = JSON.stringify({ conversation_id: 'old', turns: [{ role: 'user', content: 'Habari', timestamp: '2026-11-01T10:00:00Z' }] });
    writeFileSync(file, [conversation('twice'), undated, old, conversation('twice')].join('\n'));
    const log = readProductionLog(file, { since: new Date('2026-11-20T00:00:00Z') });
    expect(log.conversations.map(({ line, value }) => [line, value.conversation_id])).toEqual([[4, 'twice']]);
    expect(log).toMatchObject({ total: 4, beforeWindow: 1, withoutTimestamps: 1, duplicates: 1 });
  });
});

describe('docs/file-formats.md', () => {
  it('states the limits the reader has', () => {
    const doc = readFileSync(new URL('../../../docs/file-formats.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain(`lines of at most ${MAX_LOG_LINE_BYTES / (1024 * 1024)} MiB each`);
    expect(doc).toContain(`the first ${SHOWN_LOG_ISSUES} in full, the rest counted`);
  });
});
