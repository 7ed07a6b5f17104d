import { describe, expect, it } from 'vitest';
import { controlCharacterIssue, decodeUtf8 } from './text-file.js';

describe('decodeUtf8', () => {
  it('decodes UTF-8, and names the line and column of the first byte that is not', () => {
    expect(decodeUtf8(Buffer.from('Habari, Zürich 😀\n'), 'f')).toEqual({ text: 'Habari, Zürich 😀\n' });
    const latin1 = Buffer.from('one\nZ\u00fcrich and caf\u00e9\n', 'latin1');
    expect(decodeUtf8(latin1, 'f')).toEqual({
      issue: { file: 'f', line: 2, column: 2, message: 'the file is not UTF-8 text (byte 0xFC); save it as UTF-8', severity: 'error' },
    });
    // Columns count characters, not bytes, before the bad byte.
    expect(decodeUtf8(Buffer.concat([Buffer.from('üé'), Buffer.from([0xff])]), 'f')).toMatchObject({ issue: { line: 1, column: 3 } });
  });

  it('refuses overlong forms, surrogates and truncated sequences', () => {
    for (const bytes of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x61, 0xe2, 0x82]]) {
      expect(decodeUtf8(Buffer.from(bytes), 'f')).toHaveProperty('issue');
    }
  });
});

describe('controlCharacterIssue', () => {
  it('allows tabs and line ends, and names any other control character with its place', () => {
    expect(controlCharacterIssue('a\tb\r\nc\n\u0085', 'f')).toBeUndefined();
    expect(controlCharacterIssue('ok\nred: \u001b[31m', 'f')).toMatchObject({ line: 2, column: 6, message: expect.stringContaining('U+001B (ESC)') });
    expect(controlCharacterIssue('\u0000', 'f')).toMatchObject({ line: 1, column: 1, message: expect.stringContaining('U+0000 (NUL)') });
    expect(controlCharacterIssue('x\u009b', 'f')).toMatchObject({ line: 1, column: 2, message: expect.stringContaining('U+009B') });
  });
});
