import type { Output } from '../output/output.js';

/** An Output that keeps what a command printed, plain (no colour, not interactive). */
export function captureOutput(): Output & { stdout(): string; stderr(): string } {
  let out = '';
  let err = '';
  return {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    interactive: false,
    terminal: false,
    color: false,
    columns: 100,
    wrap: false,
    stdout: () => out,
    stderr: () => err,
  };
}
