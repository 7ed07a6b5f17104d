import { describe, expect, it } from 'vitest';
import { colorEnabled, outputColumns, processOutput } from './output.js';

describe('colorEnabled', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, true, false],
    [{ TERM: 'dumb' }, true, false],
  ])('%o on a terminal=%s → %s', (env, terminal, expected) => {
    expect(colorEnabled(env, terminal)).toBe(expected);
  });
});

describe('outputColumns', () => {
  it('is the terminal width on a terminal, else COLUMNS when sensible, else 80', () => {
    expect(outputColumns({ COLUMNS: '200' }, 132)).toBe(132);
    expect(outputColumns({ COLUMNS: '200' }, undefined)).toBe(200);
    expect(outputColumns({ COLUMNS: 'wide' }, undefined)).toBe(80);
    expect(outputColumns({}, undefined)).toBe(80);
  });
});

describe('processOutput', () => {
  it('reads process.stdin only when a command asks whether it runs in a terminal (making stdin loads stream modules)', () => {
    const stdin = Object.getOwnPropertyDescriptor(process, 'stdin')!;
    let reads = 0;
    Object.defineProperty(process, 'stdin', {
      configurable: true,
      get: () => {
        reads += 1;
        return { isTTY: true };
      },
    });
    try {
      const output = processOutput({});
      expect(reads).toBe(0);
      expect(output.terminal).toBe(Boolean(process.stdout.isTTY));
      expect(reads).toBe(1);
    } finally {
      Object.defineProperty(process, 'stdin', stdin);
    }
  });
});
