import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, formatIssue } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { readRecording } from './read-recording.js';

function problemsReading(path: string): string {
  try {
    readRecording(path);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map(formatIssue).join('\n');
    throw error;
  }
  return 'read without a problem';
}

describe('readRecording refuses what is not a recording', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-recording-file-'));

  it('refuses a FIFO at the recording path instead of blocking the run', () => {
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(problemsReading(fifo)).toBe(`${fifo}: the recording is not a regular file (a FIFO, device or folder?); remove it or point \`recordings:\` elsewhere`);
  });

  it('refuses bytes that are not UTF-8, control characters and deep nesting with their line', () => {
    const latin1 = join(dir, 'latin1.jsonl');
    writeFileSync(latin1, Buffer.concat([Buffer.from('{}\n{"a":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    expect(problemsReading(latin1)).toBe(`${latin1}:2:10: the file is not UTF-8 text (byte 0xE9); save it as UTF-8`);
    const control = join(dir, 'control.jsonl');
    writeFileSync(control, '{"a":"\u001b[31m"}\n');
    expect(problemsReading(control)).toMatch(/control\.jsonl:1:7: control character U\+001B \(ESC\)/);
    const deep = join(dir, 'deep.jsonl');
    writeFileSync(deep, `${'['.repeat(10_000)}${']'.repeat(10_000)}\n`);
    expect(problemsReading(deep)).toBe(`${deep}:1:1: lists and mappings nest deeper than 100 levels here; Parley reads at most 100`);
  });
});
