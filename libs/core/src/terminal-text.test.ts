import { describe, expect, it } from 'vitest';
import { terminalSafe } from './terminal-text.js';

describe('terminalSafe', () => {
  it('writes control characters as visible escapes and keeps line feeds, tabs and other text', () => {
    expect(terminalSafe('\u001b[31mred\u0000 bell\u0007\r')).toBe('\\x1b[31mred\\x00 bell\\x07\\x0d');
    expect(terminalSafe('line one\n\tline two, Zürich 😀')).toBe('line one\n\tline two, Zürich 😀');
    expect(terminalSafe('\u009b2J')).toBe('\\x9b2J');
  });
});
