#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// The heap may grow to twice its live size before a full collection (V8's default lets it reach
// about four times): a 10,000-scenario replay peaks at ~270 MiB instead of 330-400 MiB, as fast.
// Set before the bundle is imported, so before the heap grows.
setFlagsFromString('--heap-growing-percent=100');

const { main } = await import('../dist/bundle/parley.js');

// Ctrl-C stops starting scenarios and lets the run write what finished; a second Ctrl-C quits at once.
const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts += 1;
  if (interrupts > 1) process.exit(130);
  process.stderr.write('\nstopping: finishing reports for the scenarios that completed (Ctrl-C again to quit now)\n');
  controller.abort();
});

process.exitCode = await main(process.argv.slice(2), { signal: controller.signal });
