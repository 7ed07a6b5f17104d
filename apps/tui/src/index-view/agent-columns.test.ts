import { describe, expect, it } from 'vitest';
import { fit, headerLine, percent, trendWidth, wrapLines } from './agent-columns.js';
import { nextChoice } from './use-agent-filters.js';

describe('agent table columns', () => {
  it('fills exactly the terminal width', () => {
    expect(headerLine(80)).toHaveLength(80);
    expect(trendWidth(80)).toBe(19);
  });

  it('cuts long cells with … and pads short ones', () => {
    expect(fit('openai-compatible', 11)).toBe('openai-com…');
    expect(fit('2', 4, 'right')).toBe('   2');
    expect(percent(2 / 3)).toBe('67%');
    expect(percent(null)).toBe('—');
  });

  it('wraps a problem onto at most the lines allowed, joining its own lines', () => {
    expect(wrapLines('abcdefgh', 4, 2)).toEqual(['abcd', 'efgh']);
    expect(wrapLines('abcdefghij', 4, 2)).toEqual(['abcd', 'efg…']);
    expect(wrapLines('a\nb', 10, 2)).toEqual(['a · b']);
  });
});

describe('nextChoice', () => {
  it('goes through the choices and back to none', () => {
    const choices = ['prompt', 'service'];
    expect(nextChoice(choices, undefined)).toBe('prompt');
    expect(nextChoice(choices, 'prompt')).toBe('service');
    expect(nextChoice(choices, 'service')).toBeUndefined();
    expect(nextChoice(choices, 'gone')).toBe('prompt');
    expect(nextChoice([], undefined)).toBeUndefined();
  });
});
