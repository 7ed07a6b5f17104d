import { describe, expect, it } from 'vitest';
import { escapeInlineText, escapeTableCell } from './markdown-text.js';

describe('escapeTableCell', () => {
  it('escapes pipes so they do not split the cell', () => {
    expect(escapeTableCell('a | b')).toBe('a \\| b');
  });

  it('turns every kind of newline into <br>', () => {
    expect(escapeTableCell('one\ntwo\r\nthree\rfour')).toBe('one<br>two<br>three<br>four');
  });

  it('keeps placeholders like <name> visible instead of letting them pass as HTML', () => {
    expect(escapeTableCell('hello <name> & co')).toBe('hello &lt;name&gt; &amp; co');
  });

  it('escapes a backslash before a pipe so the pipe stays escaped', () => {
    expect(escapeTableCell('C:\\|x')).toBe('C:\\\\\\|x');
  });
});

describe('escapeInlineText', () => {
  it('puts multi-line text on one line', () => {
    expect(escapeInlineText('too curt\n  and cold')).toBe('too curt and cold');
  });
});
